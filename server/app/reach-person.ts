import type { LinkedPerson } from '../ports/identity-links.ts';
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
 * The person an address belongs to, when addresses link on this server (followsLinks) and this one
 * is linked; null otherwise, with no read spent when nothing links.
 */
export function linkedPersonOf(
  deps: Pick<AppDeps, 'identityLinks' | 'definition' | 'linkByPhone'>,
  userId: string,
): Promise<LinkedPerson | null> {
  const links = deps.identityLinks;
  return links && followsLinks(deps) ? links.personOf(userId) : Promise.resolve(null);
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
  const person = await linkedPersonOf(deps, address.userId);
  if (!person) return address;
  const via = address.userId === person.personId ? person.lastUsed.channelId : address.channelId;
  return { userId: person.personId, channelId: person.addresses[0]!.channelId, via };
}
