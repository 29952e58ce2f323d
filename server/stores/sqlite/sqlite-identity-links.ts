import type { ChannelAddress, IdentityLinks, LinkedAddress, LinkedPerson } from '../../ports/identity-links.ts';
import { personFromAddresses } from '../common/linked-person.ts';
import type { Database } from './database.ts';

interface LinkRow {
  user_id: string;
  channel_id: string;
  person_id: string;
  linked_at: number;
  used_at: number;
}

const toAddress = (row: LinkRow): LinkedAddress => ({
  channelId: row.channel_id,
  userId: row.user_id,
  linkedAt: row.linked_at,
  usedAt: row.used_at,
});

/** Linked addresses, link codes and wrong tries on the embedded store (migration 19). */
export function sqliteIdentityLinks(db: Database): IdentityLinks {
  const rowOf = db.prepare<[string], LinkRow>('SELECT * FROM identity_links WHERE user_id = ?');
  const rowsOfPerson = db.prepare<[string], LinkRow>('SELECT * FROM identity_links WHERE person_id = ?');
  const insert = db.prepare<[string, string, string, number, number]>(
    'INSERT INTO identity_links (user_id, channel_id, person_id, linked_at, used_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING',
  );
  const used = db.prepare<[number, string, string]>(
    'UPDATE identity_links SET used_at = ? WHERE person_id = ? AND channel_id = ?',
  );
  const forgetPerson = db.prepare<[string]>('DELETE FROM identity_links WHERE person_id = ?');
  const forgetCodes = db.prepare<[string]>('DELETE FROM link_codes WHERE issuer_user_id = ?');
  const forgetMisses = db.prepare<[string]>('DELETE FROM link_misses WHERE user_id = ?');
  const putCode = db.prepare<[string, string, string, number]>(
    'INSERT INTO link_codes (code_hash, issuer_user_id, issuer_channel_id, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (code_hash) DO UPDATE SET issuer_user_id = excluded.issuer_user_id, issuer_channel_id = excluded.issuer_channel_id, expires_at = excluded.expires_at',
  );
  // One statement: of two callers racing for one code, exactly one gets the row back.
  const takeCode = db.prepare<[string], { issuer_user_id: string; issuer_channel_id: string; expires_at: number }>(
    'DELETE FROM link_codes WHERE code_hash = ? RETURNING issuer_user_id, issuer_channel_id, expires_at',
  );
  const addMiss = db.prepare<[string, number]>('INSERT INTO link_misses (user_id, at) VALUES (?, ?)');
  const countMisses = db.prepare<[string, number], { n: number }>(
    'SELECT count(*) AS n FROM link_misses WHERE user_id = ? AND at >= ?',
  );
  const purgeCodes = db.prepare<[number]>('DELETE FROM link_codes WHERE expires_at < ?');
  const purgeMisses = db.prepare<[number]>('DELETE FROM link_misses WHERE at < ?');

  const personOf = (userId: string): LinkedPerson | null => {
    const row = rowOf.get(userId);
    return row ? personFromAddresses(row.person_id, rowsOfPerson.all(row.person_id).map(toAddress)) : null;
  };
  const link = db.transaction((primary: ChannelAddress, other: ChannelAddress, now: number) => {
    const personId = rowOf.get(primary.userId)?.person_id ?? primary.userId;
    const otherRow = rowOf.get(other.userId);
    if (otherRow && otherRow.person_id !== personId) return 'taken' as const;
    insert.run(primary.userId, primary.channelId, personId, now, now);
    insert.run(other.userId, other.channelId, personId, now, now);
    return personOf(personId)!;
  });
  const forget = db.transaction((userId: string) => {
    const person = personOf(userId);
    const addresses = person?.addresses ?? [];
    if (person) forgetPerson.run(person.personId);
    for (const id of new Set([userId, ...addresses.map((a) => a.userId)])) {
      forgetCodes.run(id);
      forgetMisses.run(id);
    }
    return addresses.map(({ channelId, userId: id }) => ({ channelId, userId: id }));
  });
  const issue = db.transaction((codeHash: string, issuer: ChannelAddress, expiresAt: number) => {
    forgetCodes.run(issuer.userId);
    putCode.run(codeHash, issuer.userId, issuer.channelId, expiresAt);
  });
  return {
    async personOf(userId) {
      return personOf(userId);
    },
    async personsOf(userIds) {
      const found = new Map<string, LinkedPerson>();
      for (const userId of userIds) {
        const person = personOf(userId);
        if (person) found.set(userId, person);
      }
      return found;
    },
    async link(primary, other, now) {
      return link.immediate(primary, other, now);
    },
    async used(personId, channelId, now) {
      used.run(now, personId, channelId);
    },
    async forget(userId) {
      return forget.immediate(userId);
    },
    async issueCode(code) {
      issue.immediate(code.codeHash, code.issuer, code.expiresAt);
    },
    async takeCode(codeHash, now) {
      const row = takeCode.get(codeHash);
      if (!row || row.expires_at <= now) return null;
      return {
        codeHash,
        issuer: { userId: row.issuer_user_id, channelId: row.issuer_channel_id },
        expiresAt: row.expires_at,
      };
    },
    async recordMiss(userId, at) {
      addMiss.run(userId, at);
    },
    async missesSince(userId, since) {
      return countMisses.get(userId, since)?.n ?? 0;
    },
    async purge(before) {
      return purgeCodes.run(before).changes + purgeMisses.run(before).changes;
    },
  };
}
