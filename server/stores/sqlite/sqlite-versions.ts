import type { Database } from './database.ts';
import type {
  Draft,
  Move,
  Publication,
  StoredVersion,
  VersionAuthor,
  VersionMeta,
  VersionSource,
  VersionsRoom,
} from '../../ports/versions.ts';
import { fromJson, toJson } from './json.ts';

interface VersionRow {
  number: number;
  id: string;
  parent_id: string | null;
  author: string;
  created_at: number;
  message: string;
  hash: string;
  source: string;
  definition?: string;
}

interface PublicationRow {
  seq: number;
  version_id: string;
  previous_id: string | null;
  at: number;
  by_whom: string;
  kind: string;
  moves: string;
  message: string | null;
}

interface DraftRow {
  account_id: string;
  base_version_id: string | null;
  definition: string;
  revision: number;
  updated_at: number;
}

const META = 'number, id, parent_id, author, created_at, message, hash, source';

function toMeta(row: VersionRow): VersionMeta {
  return {
    id: row.id,
    number: row.number,
    parentId: row.parent_id,
    author: fromJson<VersionAuthor>(row.author),
    createdAt: row.created_at,
    message: row.message,
    hash: row.hash,
    source: row.source as VersionSource,
  };
}

function toPublication(row: PublicationRow): Publication {
  return {
    seq: row.seq,
    versionId: row.version_id,
    previousId: row.previous_id,
    at: row.at,
    by: fromJson<VersionAuthor>(row.by_whom),
    kind: row.kind as Publication['kind'],
    moves: fromJson<Move[]>(row.moves),
    ...(row.message === null ? {} : { message: row.message }),
  };
}

function toDraft(row: DraftRow): Draft {
  return {
    accountId: row.account_id,
    baseVersionId: row.base_version_id,
    definitionText: row.definition,
    revision: row.revision,
    updatedAt: row.updated_at,
  };
}

/*
 * Each write is one immediate transaction: the head check and the insert of the next number
 * happen with the file locked, so two processes sharing it (and two requests in one) see one
 * head at a time. SQLite is single-node, so `exclusive` only has to order this process's callers.
 */
export function sqliteVersions(db: Database): VersionsRoom {
  const headRow = db.prepare<[], VersionRow>(`SELECT ${META} FROM studio_versions ORDER BY number DESC LIMIT 1`);
  const insertVersion = db.prepare(
    `INSERT INTO studio_versions (number, id, parent_id, author, created_at, message, hash, source, definition)
     VALUES (@number, @id, @parentId, @author, @createdAt, @message, @hash, @source, @definition)`,
  );
  const byId = db.prepare<[string], VersionRow>(`SELECT ${META}, definition FROM studio_versions WHERE id = ?`);
  const page = db.prepare<[number, number], VersionRow>(
    `SELECT ${META} FROM studio_versions WHERE number < ? ORDER BY number DESC LIMIT ?`,
  );
  const lastPublication = db.prepare<[], PublicationRow>('SELECT * FROM studio_publications ORDER BY seq DESC LIMIT 1');
  const recentPublications = db.prepare<[number], PublicationRow>(
    'SELECT * FROM studio_publications ORDER BY seq DESC LIMIT ?',
  );
  const insertPublication = db.prepare(
    `INSERT INTO studio_publications (seq, version_id, previous_id, at, by_whom, kind, moves, message)
     VALUES (@seq, @versionId, @previousId, @at, @by, @kind, @moves, @message)`,
  );
  const draftOf = db.prepare<[string], DraftRow>('SELECT * FROM studio_drafts WHERE account_id = ?');
  const upsertDraft = db.prepare(
    `INSERT INTO studio_drafts (account_id, base_version_id, definition, revision, updated_at)
     VALUES (@accountId, @baseVersionId, @definition, @revision, @updatedAt)
     ON CONFLICT (account_id) DO UPDATE SET base_version_id = excluded.base_version_id, definition = excluded.definition,
       revision = excluded.revision, updated_at = excluded.updated_at`,
  );
  const mark = db.prepare<[string], { value: string }>('SELECT value FROM studio_marks WHERE name = ?');
  const setMark = db.prepare(
    'INSERT INTO studio_marks (name, value, at) VALUES (@name, @value, @at) ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at',
  );

  const create = db.transaction(
    (version: Parameters<VersionsRoom['createVersion']>[0], expectHead: string | null | 'any') => {
      const head = headRow.get();
      if (expectHead !== 'any' && (head?.id ?? null) !== expectHead)
        return { status: 'conflict' as const, head: head ? toMeta(head) : null };
      const number = (head?.number ?? 0) + 1;
      const row: VersionRow = {
        number,
        id: `v${number}`,
        parent_id: head?.id ?? null,
        author: toJson(version.author),
        created_at: version.createdAt,
        message: version.message,
        hash: version.hash,
        source: version.source,
      };
      insertVersion.run({
        ...row,
        parentId: row.parent_id,
        createdAt: row.created_at,
        definition: version.definitionText,
      });
      return { status: 'created' as const, version: toMeta(row) };
    },
  );

  const publish = db.transaction((publication: Parameters<VersionsRoom['publish']>[0]): Publication => {
    const seq = (lastPublication.get()?.seq ?? 0) + 1;
    insertPublication.run({
      seq,
      versionId: publication.versionId,
      previousId: publication.previousId,
      at: publication.at,
      by: toJson(publication.by),
      kind: publication.kind,
      moves: toJson(publication.moves),
      message: publication.message ?? null,
    });
    return { ...publication, seq };
  });

  const writeDraft = db.transaction(
    (accountId: string, write: Parameters<VersionsRoom['writeDraft']>[1], expectedRevision: number | null) => {
      const current = draftOf.get(accountId);
      if ((current?.revision ?? null) !== expectedRevision)
        return { status: 'conflict' as const, draft: current ? toDraft(current) : null };
      const row: DraftRow = {
        account_id: accountId,
        base_version_id: write.baseVersionId,
        definition: write.definitionText,
        revision: (current?.revision ?? 0) + 1,
        updated_at: write.updatedAt,
      };
      upsertDraft.run({
        accountId,
        baseVersionId: row.base_version_id,
        definition: row.definition,
        revision: row.revision,
        updatedAt: row.updated_at,
      });
      return { status: 'saved' as const, draft: toDraft(row) };
    },
  );

  const queues = new Map<string, Promise<unknown>>();

  return {
    async createVersion(version, expectHead) {
      return create.immediate(version, expectHead);
    },
    async getVersion(id) {
      const row = byId.get(id);
      return row ? ({ ...toMeta(row), definitionText: row.definition! } satisfies StoredVersion) : null;
    },
    async listVersions(limit, beforeNumber) {
      return page.all(beforeNumber ?? Number.MAX_SAFE_INTEGER, limit).map(toMeta);
    },
    async head() {
      const row = headRow.get();
      return row ? toMeta(row) : null;
    },
    async publish(publication) {
      return publish.immediate(publication);
    },
    async published() {
      const row = lastPublication.get();
      return row ? toPublication(row) : null;
    },
    async publications(limit) {
      return recentPublications.all(limit).map(toPublication);
    },
    async readDraft(accountId) {
      const row = draftOf.get(accountId);
      return row ? toDraft(row) : null;
    },
    async writeDraft(accountId, write, expectedRevision) {
      return writeDraft.immediate(accountId, write, expectedRevision);
    },
    async fileSeen() {
      return mark.get('file')?.value ?? null;
    },
    async markFileSeen(hash, at) {
      setMark.run({ name: 'file', value: hash, at });
    },
    exclusive(key, action) {
      // Each caller waits for the one before it; the chain never rejects, so one failure does not hold back the next.
      const run = (queues.get(key) ?? Promise.resolve()).then(action);
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return run;
    },
  };
}
