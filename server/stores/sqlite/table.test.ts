import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { insertInto, recordOf, rowOf, selectFrom, table, upsertInto, type Row } from './table.ts';

interface Note {
  id: string;
  createdAt: number;
  tags: string[];
  title?: string;
}

const NOTES = table<Note>(
  'notes',
  { id: 'id', createdAt: 'created_at', tags: 'tags', title: 'title' },
  { json: ['tags'], optional: ['title'] },
);

// A table declared once gives the statements and the mapping both ways, so a field is spelled in one place.
describe('a table declaration', () => {
  function notes() {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, tags TEXT NOT NULL, title TEXT)');
    return db;
  }

  it('when a record is written and read back, then it comes back as given, an absent optional field absent', () => {
    const db = notes();
    const insert = db.prepare(insertInto(NOTES));
    const byId = db.prepare<[string], Row>(`${selectFrom(NOTES)} WHERE id = ?`);
    insert.run(rowOf(NOTES, { id: 'a', createdAt: 1, tags: ['x', 'y'], title: 'first' }));
    insert.run(rowOf(NOTES, { id: 'b', createdAt: 2, tags: [] }));
    expect(recordOf(NOTES, byId.get('a')!)).toStrictEqual({ id: 'a', createdAt: 1, tags: ['x', 'y'], title: 'first' });
    expect(recordOf(NOTES, byId.get('b')!)).toStrictEqual({ id: 'b', createdAt: 2, tags: [] });
  });

  it('when fields are left out of a select, then the record has none of them', () => {
    const db = notes();
    db.prepare(insertInto(NOTES)).run(rowOf(NOTES, { id: 'a', createdAt: 1, tags: ['x'], title: 't' }));
    const row = db.prepare<[], Row>(selectFrom(NOTES, ['tags', 'title'])).get()!;
    expect(recordOf(NOTES, row)).toStrictEqual({ id: 'a', createdAt: 1 });
  });

  it('when a row is upserted on its key, then every other column takes the new value', () => {
    const db = notes();
    const upsert = db.prepare(upsertInto(NOTES, 'id'));
    upsert.run(rowOf(NOTES, { id: 'a', createdAt: 1, tags: ['x'], title: 't' }));
    upsert.run(rowOf(NOTES, { id: 'a', createdAt: 2, tags: ['y'] }));
    const rows = db.prepare<[], Row>(selectFrom(NOTES)).all();
    expect(rows.map((row) => recordOf(NOTES, row))).toStrictEqual([{ id: 'a', createdAt: 2, tags: ['y'] }]);
  });
});
