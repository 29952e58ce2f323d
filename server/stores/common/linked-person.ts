import type { LinkedAddress, LinkedPerson } from '../../ports/identity-links.ts';

/** One person from their address rows: the primary first, then by link time; the last used is the latest `usedAt`, the primary on a tie. */
export function personFromAddresses(personId: string, addresses: readonly LinkedAddress[]): LinkedPerson {
  const ordered = [...addresses].sort(
    (a, b) => Number(b.userId === personId) - Number(a.userId === personId) || a.linkedAt - b.linkedAt,
  );
  const last = ordered.reduce((best, address) => (address.usedAt > best.usedAt ? address : best), ordered[0]!);
  return { personId, addresses: ordered, lastUsed: { channelId: last.channelId, userId: last.userId } };
}
