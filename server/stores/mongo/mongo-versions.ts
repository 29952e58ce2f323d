import type { Db } from 'mongodb';
import type {
  Draft,
  Move,
  Publication,
  VersionAuthor,
  VersionMeta,
  VersionSource,
  VersionsRoom,
} from '../../ports/versions.ts';
import { ensureCollectionIndexes } from './indexes.ts';
import type { KeyLocks } from './key-lock.ts';
import { isDuplicateKey } from './mongo-common.ts';

export const VERSION_COLLECTIONS = {
  versions: 'studio_versions',
  publications: 'studio_publications',
  drafts: 'studio_drafts',
  marks: 'studio_marks',
} as const;

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

interface PublicationDoc {
  _id: number;
  versionId: string;
  previousId: string | null;
  at: number;
  by: VersionAuthor;
  kind: Publication['kind'];
  moves: Move[];
  message?: string;
}

interface DraftDoc {
  _id: string;
  baseVersionId: string | null;
  definition: string;
  revision: number;
  updatedAt: number;
}

interface MarkDoc {
  _id: string;
  value: string;
  at: number;
}

function toMeta(doc: VersionDoc): VersionMeta {
  return {
    id: doc._id,
    number: doc.number,
    parentId: doc.parentId,
    author: doc.author,
    createdAt: doc.createdAt,
    message: doc.message,
    hash: doc.hash,
    source: doc.source,
  };
}

function toPublication(doc: PublicationDoc): Publication {
  const { _id, ...rest } = doc;
  return { ...rest, seq: _id };
}

function toDraft(doc: DraftDoc): Draft {
  return {
    accountId: doc._id,
    baseVersionId: doc.baseVersionId,
    definitionText: doc.definition,
    revision: doc.revision,
    updatedAt: doc.updatedAt,
  };
}

const WITHOUT_DEFINITION = { projection: { definition: 0 } } as const;

/*
 * No transactions and no conditional updates (FerretDB 1.x has neither; see key-lock.ts). What
 * is atomic everywhere is an insert under a unique key: a version's _id is `v<number>`, so two
 * saves on one head both try the same next _id and exactly one is inserted; publications are
 * numbered the same way. A draft is read, checked and written under its account's lock.
 * MongoDB features used: insertOne (duplicate key 11000), find with sort/limit, replaceOne and
 * updateOne with upsert by _id.
 */
export async function mongoVersions(db: Db, locks: KeyLocks): Promise<VersionsRoom> {
  await ensureCollectionIndexes(db, {
    [VERSION_COLLECTIONS.versions]: [{ key: { number: -1 }, name: 'number', unique: true }],
  });
  const versions = db.collection<VersionDoc>(VERSION_COLLECTIONS.versions);
  const publications = db.collection<PublicationDoc>(VERSION_COLLECTIONS.publications);
  const drafts = db.collection<DraftDoc>(VERSION_COLLECTIONS.drafts);
  const marks = db.collection<MarkDoc>(VERSION_COLLECTIONS.marks);

  const head = async () =>
    (await versions.find({}, WITHOUT_DEFINITION).sort({ number: -1 }).limit(1).toArray())[0] ?? null;
  const lastPublication = async () => (await publications.find({}).sort({ _id: -1 }).limit(1).toArray())[0] ?? null;

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
      const docs = await versions
        .find(beforeNumber === undefined ? {} : { number: { $lt: beforeNumber } }, WITHOUT_DEFINITION)
        .sort({ number: -1 })
        .limit(limit)
        .toArray();
      return docs.map(toMeta);
    },
    async head() {
      const doc = await head();
      return doc ? toMeta(doc) : null;
    },
    async publish(publication) {
      for (;;) {
        const seq = ((await lastPublication())?._id ?? 0) + 1;
        const doc: PublicationDoc = {
          _id: seq,
          versionId: publication.versionId,
          previousId: publication.previousId,
          at: publication.at,
          by: publication.by,
          kind: publication.kind,
          moves: publication.moves.map((move) => ({ from: { ...move.from }, to: { ...move.to } })),
          ...(publication.message === undefined ? {} : { message: publication.message }),
        };
        try {
          await publications.insertOne(doc);
          return toPublication(doc);
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      }
    },
    async published() {
      const doc = await lastPublication();
      return doc ? toPublication(doc) : null;
    },
    async publications(limit) {
      return (await publications.find({}).sort({ _id: -1 }).limit(limit).toArray()).map(toPublication);
    },
    async readDraft(accountId) {
      const doc = await drafts.findOne({ _id: accountId });
      return doc ? toDraft(doc) : null;
    },
    async writeDraft(accountId, write, expectedRevision) {
      return locks.withLock(`studio:draft:${accountId}`, async () => {
        const current = await drafts.findOne({ _id: accountId });
        if ((current?.revision ?? null) !== expectedRevision)
          return { status: 'conflict', draft: current ? toDraft(current) : null };
        const doc: DraftDoc = {
          _id: accountId,
          baseVersionId: write.baseVersionId,
          definition: write.definitionText,
          revision: (current?.revision ?? 0) + 1,
          updatedAt: write.updatedAt,
        };
        await drafts.replaceOne({ _id: accountId }, doc, { upsert: true });
        return { status: 'saved', draft: toDraft(doc) };
      });
    },
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
