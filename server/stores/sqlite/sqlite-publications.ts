import type { Database } from './database.ts';
import type { Publication } from '../../ports/versions.ts';
import type { Publications } from '../common/version-parts.ts';
import { insertInto, recordOf, rowOf, selectFrom, table, type Row } from './table.ts';

const PUBLICATIONS = table<Publication>(
  'studio_publications',
  {
    seq: 'seq',
    versionId: 'version_id',
    previousId: 'previous_id',
    at: 'at',
    by: 'by_whom',
    kind: 'kind',
    moves: 'moves',
    message: 'message',
  },
  { json: ['by', 'moves'], optional: ['message'] },
);

/** What went into service, numbered in one immediate transaction (see sqlite-versions.ts). */
export function sqlitePublications(db: Database): Publications {
  const toPublication = (row: Row) => recordOf(PUBLICATIONS, row);
  const lastPublication = db.prepare<[], Row>(`${selectFrom(PUBLICATIONS)} ORDER BY seq DESC LIMIT 1`);
  const recentPublications = db.prepare<[number], Row>(`${selectFrom(PUBLICATIONS)} ORDER BY seq DESC LIMIT ?`);
  const insertPublication = db.prepare(insertInto(PUBLICATIONS));
  const lastSeq = db.prepare<[], number>(`SELECT coalesce(max(seq), 0) FROM ${PUBLICATIONS.name}`).pluck();

  const publish = db.transaction((publication: Parameters<Publications['publish']>[0]): Publication => {
    const numbered: Publication = { ...publication, seq: lastSeq.get()! + 1 };
    insertPublication.run(rowOf(PUBLICATIONS, numbered));
    return numbered;
  });

  return {
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
  };
}
