import type { Db, Filter } from 'mongodb';
import type { AuditEntry, AuditStore } from '../../ports/audit.ts';
import { indexedCollection } from './indexes.ts';

const COLLECTION = 'studio_audit';

type AuditDoc = Omit<AuditEntry, 'id'> & { _id: string };

/** The audit trail on MongoDB: one document per entry, its id (which starts with the time) as _id. */
export async function mongoAudit(db: Db): Promise<AuditStore> {
  const entries = await indexedCollection<AuditDoc>(db, COLLECTION, [{ key: { at: 1, _id: 1 }, name: 'at_id' }]);
  return {
    async appendAudit(entry) {
      const { id, ...rest } = entry;
      await entries.insertOne({ _id: id, ...rest });
    },
    async readAudit(query) {
      const filter: Filter<AuditDoc> = {};
      const at: Record<string, number> = {};
      if (query.fromAt !== undefined) at.$gte = query.fromAt;
      if (query.toAt !== undefined) at.$lt = query.toAt;
      if (Object.keys(at).length > 0) Object.assign(filter, { at });
      if (query.after !== undefined) filter._id = { $gt: query.after };
      const docs = await entries.find(filter).sort({ _id: 1 }).limit(query.limit).toArray();
      return docs.map(({ _id, ...rest }) => ({ id: _id, ...rest }) as AuditEntry);
    },
    async purgeAuditBefore(before) {
      return (await entries.deleteMany({ at: { $lt: before } })).deletedCount;
    },
  };
}
