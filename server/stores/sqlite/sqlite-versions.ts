import type { Database } from './database.ts';
import type { StoredVersion, VersionMeta, VersionsStore } from '../../ports/versions.ts';
import type { VersionHistory } from '../common/version-parts.ts';
import { sqliteDrafts } from './sqlite-drafts.ts';
import { sqlitePublications } from './sqlite-publications.ts';
import { insertInto, recordOf, rowOf, selectFrom, table, type Row, upsertInto } from './table.ts';

const VERSIONS = table<StoredVersion>(
  'studio_versions',
  {
    id: 'id',
    number: 'number',
    parentId: 'parent_id',
    author: 'author',
    createdAt: 'created_at',
    message: 'message',
    hash: 'hash',
    source: 'source',
    definitionText: 'definition',
  },
  { json: ['author'] },
);

/** A version without its definition: what lists and heads carry. */
const META = selectFrom(VERSIONS, ['definitionText']);

const MARKS = table<{ name: string; value: string; at: number }>('studio_marks', {
  name: 'name',
  value: 'value',
  at: 'at',
});

/*
 * Each write is one immediate transaction: the head check and the insert of the next number
 * happen with the file locked, so two processes sharing it (and two requests in one) see one
 * head at a time. SQLite is single-node, so `exclusive` only has to order this process's callers.
 */
export function sqliteVersions(db: Database): VersionsStore {
  const mark = db.prepare<[string], string>(`SELECT value FROM ${MARKS.name} WHERE name = ?`).pluck();
  const setMark = db.prepare(upsertInto(MARKS, 'name'));
  const queues = new Map<string, Promise<unknown>>();

  return {
    ...sqliteVersionHistory(db),
    ...sqlitePublications(db),
    ...sqliteDrafts(db),
    async fileSeen() {
      return mark.get('file') ?? null;
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

/** The saved versions, numbered one after the other from the head each save expected. */
function sqliteVersionHistory(db: Database): VersionHistory {
  const toMeta = (row: Row): VersionMeta => recordOf(VERSIONS, row);
  const headRow = db.prepare<[], Row>(`${META} ORDER BY number DESC LIMIT 1`);
  const insertVersion = db.prepare(insertInto(VERSIONS));
  const byId = db.prepare<[string], Row>(`${selectFrom(VERSIONS)} WHERE id = ?`);
  const page = db.prepare<[number, number], Row>(`${META} WHERE number < ? ORDER BY number DESC LIMIT ?`);

  const create = db.transaction(
    (version: Parameters<VersionsStore['createVersion']>[0], expectHead: string | null | 'any') => {
      const row = headRow.get();
      const head = row ? toMeta(row) : null;
      if (expectHead !== 'any' && (head?.id ?? null) !== expectHead) return { status: 'conflict' as const, head };
      const { definitionText, ...meta } = version;
      const number = (head?.number ?? 0) + 1;
      const created: VersionMeta = { id: `v${number}`, number, parentId: head?.id ?? null, ...meta };
      insertVersion.run(rowOf(VERSIONS, { ...created, definitionText }));
      return { status: 'created' as const, version: created };
    },
  );

  return {
    async createVersion(version, expectHead) {
      return create.immediate(version, expectHead);
    },
    async getVersion(id) {
      const row = byId.get(id);
      return row ? recordOf(VERSIONS, row) : null;
    },
    async listVersions(limit, beforeNumber) {
      return page.all(beforeNumber ?? Number.MAX_SAFE_INTEGER, limit).map(toMeta);
    },
    async head() {
      const row = headRow.get();
      return row ? toMeta(row) : null;
    },
  };
}
