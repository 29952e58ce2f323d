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
 * Where a trigger for a linked address goes (one conversation across channels): the person's
 * record, reached on the channel they used last; a trigger naming one of their other addresses
 * (a web chat linked into the person) reaches them there. Anyone else: the address as named.
 */
export async function reachPerson(
  deps: Pick<AppDeps, 'identityLinks' | 'definition'>,
  address: { readonly userId: string; readonly channelId: string },
): Promise<PersonAddress> {
  if (!deps.identityLinks || !linksChannels(deps.definition)) return address;
  const person = await deps.identityLinks.personOf(address.userId);
  if (!person) return address;
  const via = address.userId === person.personId ? person.lastUsed.channelId : address.channelId;
  return { userId: person.personId, channelId: person.addresses[0]!.channelId, via };
}
