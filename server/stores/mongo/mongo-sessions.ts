import type { Db } from 'mongodb';
import type { Sessions, StudioSession } from '../../ports/sessions.ts';
import { indexedCollection } from './indexes.ts';

const COLLECTION = 'studio_sessions';

type SessionDoc = Omit<StudioSession, 'id'> & { _id: string };

const toSession = ({ _id, ...rest }: SessionDoc): StudioSession => ({ id: _id, ...rest });

/** The studio's sessions on MongoDB: one document per session, keyed by the cookie's digest. */
export async function mongoSessions(db: Db): Promise<Sessions> {
  const sessions = await indexedCollection<SessionDoc>(db, COLLECTION, [
    { key: { accountId: 1 }, name: 'account' },
    { key: { expiresAt: 1 }, name: 'expires' },
    { key: { lastSeenAt: 1 }, name: 'last_seen' },
  ]);
  return {
    async createSession(session) {
      const { id, ...rest } = session;
      await sessions.insertOne({ _id: id, ...rest });
    },
    async sessionById(id) {
      const doc = await sessions.findOne({ _id: id });
      return doc ? toSession(doc) : null;
    },
    async touchSession(id, at) {
      // $max never moves activity backwards, even when two nodes touch the same session out of order.
      await sessions.updateOne({ _id: id }, { $max: { lastSeenAt: at } });
    },
    async deleteSession(id) {
      return (await sessions.deleteOne({ _id: id })).deletedCount === 1;
    },
    async deleteSessionsOf(accountId, except) {
      return (await sessions.deleteMany({ accountId, ...(except === undefined ? {} : { _id: { $ne: except } }) }))
        .deletedCount;
    },
    async listSessions(accountId) {
      return (await sessions.find({ accountId }).sort({ lastSeenAt: -1, _id: 1 }).toArray()).map(toSession);
    },
    async purgeExpiredSessions(now, idleMs) {
      return (
        await sessions.deleteMany({ $or: [{ expiresAt: { $lte: now } }, { lastSeenAt: { $lte: now - idleMs } }] })
      ).deletedCount;
    },
  };
}
