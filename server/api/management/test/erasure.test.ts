import { stat } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../../stores/sqlite/database.ts';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/protocol.ts';
import { EXPORT_NAMES } from '../../../app/export-records.ts';
import { LOG_KINDS } from '../../../ports/store.ts';
import { connectClient, eventually, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { BOT_ID, encodeAddress, keyed, startManagementServer } from './helpers.ts';

/** Every row of every table (SQLite) or document of every collection (Mongo), as JSON text, read around the server. */
async function everyRecord(server: TestServer, mongoUrl: string | undefined): Promise<string[]> {
  if (mongoUrl === undefined) {
    const db = openDatabase(path.join(server.dataDir, 'chatbot.sqlite'), { readonly: true });
    try {
      const tables = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      return tables.flatMap(({ name }) =>
        db
          .prepare(`SELECT * FROM "${name}"`)
          .all()
          .map((row) => `${name}: ${JSON.stringify(row)}`),
      );
    } finally {
      db.close();
    }
  }
  const client = await MongoClient.connect(mongoUrl);
  try {
    const records: string[] = [];
    for (const { name } of await client.db().listCollections({}, { nameOnly: true }).toArray()) {
      for (const doc of await client.db().collection(name).find({}).toArray())
        records.push(`${name}: ${JSON.stringify(doc)}`);
    }
    return records;
  } finally {
    await client.close();
  }
}

/** A web chat visitor who answers the greeting: a user row, a transcript, a snapshot-worthy name. */
async function converse(server: TestServer, name: string): Promise<string> {
  const client = connectClient(server.url);
  const session = await new Promise<Session>((resolve) => client.once('session', resolve));
  await eventually('the prompt', () => client.items.length >= 2);
  await client.emitWithAck('message', { clientId: `${name}-1`, text: name });
  await eventually('the thanks', () =>
    client.items.some((item) => item.message.type === 'text' && item.message.text === `Thanks, ${name}.`),
  );
  client.disconnect();
  return session.userId;
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`erasing a user (${leg.name})`, () => {
    let server: TestServer;
    let mongoUrl: string | undefined;
    let gone: string;
    let kept: string;
    const api = (method: string, route: string, init: RequestInit = {}) =>
      fetch(`${server.url}${route}`, keyed({ ...init, method }));

    beforeAll(async () => {
      const env = leg.env();
      mongoUrl = env.MONGODB_URL;
      server = await startManagementServer(env);
      gone = await converse(server, 'Ada');
      kept = await converse(server, 'Grace');
      for (const userId of [gone, kept]) {
        for (const kind of LOG_KINDS)
          await server.store.appendLog(kind, { userId, timestamp: Date.now(), data: { name: `${kind} of the user` } });
        // A trigger (run at once: its job stays, done) and a timer that is still to fire.
        const address = encodeAddress({ bot: BOT_ID, user: userId, channelId: 'webchat' });
        expect(
          (
            await api('POST', `/api/management/trigger/${address}/operationSucceeded`, {
              body: '{"transactionId":"T-1"}',
              headers: { 'content-type': 'application/json' },
            })
          ).status,
        ).toBe(202);
        await server.store.scheduleJob({
          id: `timer:${userId}:later`,
          kind: 'timer',
          payload: { userId, timerId: 'later' },
          runAt: Date.now() + 3_600_000,
        });
      }
      await eventually(
        'both triggers ran',
        async () =>
          (await server.store.readTranscript(gone, 0, 100)).length >= 5 &&
          (await server.store.readTranscript(kept, 0, 100)).length >= 5,
      );
      // The insights of both conversations are written by the recorder's next flush: written now, so the
      // records counted before the erasure are all there will be (a late flush added one of the kept user's).
      await server.insights.recorder?.flush();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when DELETE /api/management/users/{userId} is called, then it answers what was erased and no table or collection holds a row naming the user, while the other user is untouched', async () => {
      const before = await everyRecord(server, mongoUrl);
      expect(before.some((record) => record.includes(gone))).toBe(true);
      const res = await api('DELETE', `/api/management/users/${encodeURIComponent(gone)}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        userId: string;
        erased: { user: number; transcript: number; logs: Record<string, number>; jobs: number };
      };
      expect(body.userId).toBe(gone);
      expect(body.erased.user).toBe(1);
      expect(body.erased.transcript).toBeGreaterThanOrEqual(5);
      expect(Object.keys(body.erased.logs).sort()).toStrictEqual([...LOG_KINDS].sort());
      for (const kind of LOG_KINDS) expect(body.erased.logs[kind]).toBeGreaterThanOrEqual(1);
      expect(body.erased.jobs).toBe(2);

      const after = await everyRecord(server, mongoUrl);
      expect(after.filter((record) => record.includes(gone))).toStrictEqual([]);
      const keptBefore = before.filter((record) => record.includes(kept));
      const keptAfter = after.filter((record) => record.includes(kept));
      expect(
        keptAfter.length,
        `the kept user's records, before:\n${keptBefore.join('\n')}\nafter:\n${keptAfter.join('\n')}`,
      ).toBe(keptBefore.length);
    });

    it('when every export is read after the erasure, then none names the user and the other user is still there', async () => {
      for (const name of EXPORT_NAMES) {
        const res = await api('GET', `/api/management/export/${name}`);
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text, name).not.toContain(gone);
        expect(text, name).toContain(kept);
      }
    });

    it('when the same user is erased again, then 200 with every count at zero', async () => {
      const res = await api('DELETE', `/api/management/users/${encodeURIComponent(gone)}`);
      expect(res.status).toBe(200);
      const { erased } = (await res.json()) as {
        erased: { user: number; transcript: number; logs: Record<string, number>; jobs: number };
      };
      expect(erased).toStrictEqual({
        user: 0,
        transcript: 0,
        logs: Object.fromEntries(LOG_KINDS.map((kind) => [kind, 0])),
        jobs: 0,
      });
    });

    it('when the key is missing, the id too long or the method wrong, then 401, 400 and 405 and nothing is erased', async () => {
      expect((await fetch(`${server.url}/api/management/users/${kept}`, { method: 'DELETE' })).status).toBe(401);
      const long = await api('DELETE', `/api/management/users/${'x'.repeat(257)}`);
      expect(long.status).toBe(400);
      expect(((await long.json()) as { error: { code: string } }).error.code).toBe('invalid_parameter');
      const wrong = await api('GET', `/api/management/users/${kept}`);
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('DELETE');
      expect(await server.store.getUser(kept)).not.toBeNull();
    });

    it('when a user is erased while their widget is open, then its next message is refused and a reconnect starts a new conversation under the same id', async () => {
      const client = connectClient(server.url);
      const session = await new Promise<Session>((resolve) => client.once('session', resolve));
      await eventually('the prompt', () => client.items.length >= 2);
      expect((await api('DELETE', `/api/management/users/${session.userId}`)).status).toBe(200);
      const answer = await client.emitWithAck('message', { clientId: 'after-1', text: 'Still here?' });
      expect(answer.ok).toBe(false);
      expect(await server.store.getUser(session.userId)).toBeNull();
      client.disconnect();
      const again = connectClient(server.url, { userId: session.userId, token: session.token, lastSeq: 2 });
      expect((await new Promise<Session>((resolve) => again.once('session', resolve))).userId).toBe(session.userId);
      await eventually('the greeting again', () => again.items.length >= 2);
      expect(again.items.map((item) => item.seq)).toStrictEqual([1, 2]);
      again.disconnect();
    });

    // File modes belong to the embedded store alone.
    if (leg.name === 'sqlite')
      it('when the server created its SQLite file and function key, then only the server user may read them (0600)', async () => {
        expect((await stat(path.join(server.dataDir, 'chatbot.sqlite'))).mode & 0o777).toBe(0o600);
        expect((await stat(path.join(server.dataDir, 'session.secret'))).mode & 0o777).toBe(0o600);
      });
  });
}
