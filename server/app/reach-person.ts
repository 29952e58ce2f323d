import type { AppDeps } from './deps.ts';
import { linksChannels } from './link-code.ts';

/** A user address as a trigger names it, and the channel a linked person is to hear it on. */
export interface PersonAddress {
  readonly userId: string;
  readonly channelId: string;
  /** The channel the person hears the trigger's dialog on, when it is not the one stored with them. */
  readonly via?: string;
}

/**
 * Whether addresses may be linked on this server, so that an address is worth looking up: the bot
 * has a link-channels step, or signed phone numbers link (BOT_IDENTITY_LINK_PHONE). Otherwise no
 * read is spent on it.
 */
export function followsLinks(deps: Pick<AppDeps, 'identityLinks' | 'definition' | 'linkByPhone'>): boolean {
  return deps.identityLinks !== undefined && (deps.linkByPhone === true || linksChannels(deps.definition));
}

/**
 * Where a trigger for a linked address goes (one conversation across channels): the person's
 * record, reached on the channel they used last; a trigger naming one of their other addresses
 * (a web chat linked into the person) reaches them there. Anyone else: the address as named.
 */
export async function reachPerson(
  deps: Pick<AppDeps, 'identityLinks' | 'definition' | 'linkByPhone'>,
  address: { readonly userId: string; readonly channelId: string },
): Promise<PersonAddress> {
  const links = deps.identityLinks;
  if (!links || !followsLinks(deps)) return address;
  const person = await links.personOf(address.userId);
  if (!person) return address;
  const via = address.userId === person.personId ? person.lastUsed.channelId : address.channelId;
  return { userId: person.personId, channelId: person.addresses[0]!.channelId, via };
}
