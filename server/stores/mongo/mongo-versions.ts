import type { Db, Filter } from 'mongodb';
import type { VersionAuthor, VersionMeta, VersionSource, VersionsStore } from '../../ports/versions.ts';
import type { VersionHistory } from '../common/version-parts.ts';
import { indexedCollection } from './indexes.ts';
import type { KeyLocks } from './key-lock.ts';
import { isDuplicateKey } from './mongo-common.ts';
import { mongoDrafts } from './mongo-drafts.ts';
import { mongoPublications } from './mongo-publications.ts';

interface VersionDoc {
  /** `v<number>`: the unique _id is what makes "the next number on this head" atomic. */
  _id: string;
  number: number;
  parentId: string | null;
  author: VersionAuthor;
  createdAt: number;
  message: string;
  hash: string;
  source: VersionSource;
  /** Canonical JSON text: a definition's own keys ("$schema", dotted names in params) are not document keys. */
  definition?: string;
}

interface MarkDoc {
  _id: string;
  value: string;
  at: number;
}

function toMeta({ _id, definition: _definition, ...meta }: VersionDoc): VersionMeta {
  return { id: _id, ...meta };
}

const WITHOUT_DEFINITION = { projection: { definition: 0 } } as const;

/*
 * No transactions and no conditional updates (FerretDB 1.x has neither; see key-lock.ts). What
 * is atomic everywhere is an insert under a unique key: a version's _id is `v<number>`, so two
 * saves on one head both try the same next _id and exactly one is inserted; publications are
 * numbered the same way (mongo-publications.ts). A draft is read, checked and written under its
 * account's lock (mongo-drafts.ts). MongoDB features used: insertOne (duplicate key 11000), find
 * with sort/limit, replaceOne and updateOne with upsert by _id.
 */
export async function mongoVersions(db: Db, locks: KeyLocks): Promise<VersionsStore> {
  const marks = db.collection<MarkDoc>('studio_marks');
  return {
    ...(await mongoVersionHistory(db)),
    ...mongoPublications(db),
    ...mongoDrafts(db, locks),
    async fileSeen() {
      return (await marks.findOne({ _id: 'file' }))?.value ?? null;
    },
    async markFileSeen(hash, at) {
      await marks.updateOne({ _id: 'file' }, { $set: { value: hash, at } }, { upsert: true });
    },
    exclusive(key, action) {
      return locks.withLock(`studio:${key}`, action);
    },
  };
}

/** The saved versions, numbered one after the other from the head each save expected. */
async function mongoVersionHistory(db: Db): Promise<VersionHistory> {
  const versions = await indexedCollection<VersionDoc>(db, 'studio_versions', [
    { key: { number: -1 }, name: 'number', unique: true },
  ]);
  const latest = (filter: Filter<VersionDoc>, limit: number) =>
    versions.find(filter, WITHOUT_DEFINITION).sort({ number: -1 }).limit(limit).toArray();
  const head = async () => (await latest({}, 1))[0] ?? null;

  return {
    async createVersion(version, expectHead) {
      for (;;) {
        const current = await head();
        if (expectHead !== 'any' && (current?._id ?? null) !== expectHead)
          return { status: 'conflict', head: current ? toMeta(current) : null };
        const number = (current?.number ?? 0) + 1;
        const doc: VersionDoc = {
          _id: `v${number}`,
          number,
          parentId: current?._id ?? null,
          author: version.author,
          createdAt: version.createdAt,
          message: version.message,
          hash: version.hash,
          source: version.source,
          definition: version.definitionText,
        };
        try {
          await versions.insertOne(doc);
          return { status: 'created', version: toMeta(doc) };
        } catch (error) {
          // Another save took that number first: the head moved; read it again.
          if (!isDuplicateKey(error)) throw error;
        }
      }
    },
    async getVersion(id) {
      const doc = await versions.findOne({ _id: id });
      return doc ? { ...toMeta(doc), definitionText: doc.definition ?? '' } : null;
    },
    async listVersions(limit, beforeNumber) {
      return (await latest(beforeNumber === undefined ? {} : { number: { $lt: beforeNumber } }, limit)).map(toMeta);
    },
    async head() {
      const doc = await head();
      return doc ? toMeta(doc) : null;
    },
  };
}
