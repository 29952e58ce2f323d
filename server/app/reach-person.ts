import type { LinkedPerson } from '../ports/identity-links.ts';
import type { AppDeps } from './deps.ts';
import { WEBCHAT } from './link-channels.ts';
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
 * record, reached in the web chat when they have it open right now, else on the channel they used
 * last; a trigger naming one of their other addresses (a web chat linked into the person) reaches
 * them there. Anyone else: the address as named.
 */
export async function reachPerson(
  deps: Pick<AppDeps, 'identityLinks' | 'definition' | 'linkByPhone' | 'delivery'>,
  address: { readonly userId: string; readonly channelId: string },
): Promise<PersonAddress> {
  const person = await linkedPersonOf(deps, address.userId);
  if (!person) return address;
  const via = address.userId === person.personId ? await heardOn(deps, person) : address.channelId;
  return { userId: person.personId, channelId: person.addresses[0]!.channelId, via };
}

/**
 * The channel a trigger that names the person (their record's address) reaches them on. A person
 * reading the web chat now sees it there at once, though they last wrote elsewhere (a site that
 * linked them by a signed identity, where they have not written yet); else where they wrote last,
 * the channel they answer on.
 */
async function heardOn(deps: Pick<AppDeps, 'delivery'>, person: LinkedPerson): Promise<string> {
  const last = person.lastUsed.channelId;
  if (last === WEBCHAT || !person.addresses.some((address) => address.channelId === WEBCHAT)) return last;
  // Their web chat widgets speak for the person: they are in the person's room, whichever node holds them.
  const open = await Promise.resolve(deps.delivery.webchatOpen?.(person.personId)).catch(() => false);
  return open ? WEBCHAT : last;
}
