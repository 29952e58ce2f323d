import { openDatabase } from './database.ts';
import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

// A turn's writes are all or nothing, whether its commit carries it alone or with others'.
describe('group commit', () => {
  function table() {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    const write = groupCommit(db, (keys: readonly string[]) => {
      for (const k of keys) {
        if (k === 'boom') throw new Error('the write failed halfway');
        insert.run(k);
      }
      return keys.length;
    });
    const keys = () => db.prepare('SELECT k FROM t ORDER BY k').pluck().all() as string[];
    return { db, write, keys };
  }

  it('when a write carried alone fails halfway, then nothing of it is stored and its caller hears why', async () => {
    const { write, keys } = table();
    await expect(write(['a', 'boom'])).rejects.toThrow('halfway');
    expect(keys()).toEqual([]);
    // The database is usable after: the next write commits.
    await expect(write(['b'])).resolves.toBe(1);
    expect(keys()).toEqual(['b']);
  });

  it('when one of several writes in a commit fails halfway, then only that one is undone', async () => {
    const { write, keys } = table();
    const results = await Promise.allSettled([write(['a']), write(['b', 'boom']), write(['c'])]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(keys()).toEqual(['a', 'c']);
  });
});
