import { createServer } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { describeUrl, openMongoStore } from './mongo-store.ts';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

describe('openMongoStore', () => {
  it('when no server answers, then it rejects naming the host and never the password', async () => {
    const port = await closedPort();
    const url = `mongodb://bot:s3cret-pw@127.0.0.1:${port}/chat`;
    const error = await openMongoStore({ url, serverSelectionTimeoutMs: 300 }).then(
      () => null,
      (reason: unknown) => reason as Error,
    );
    expect(error?.message).toContain(`cannot connect to MongoDB at 127.0.0.1:${port}`);
    expect(error?.message).not.toContain('s3cret-pw');
  });

  it('when a URL has credentials, hosts and a database, then describeUrl keeps hosts and database only', () => {
    expect(describeUrl('mongodb://u:p@a:1,b:2/app?replicaSet=rs')).toStrictEqual({ hosts: 'a:1,b:2', dbName: 'app' });
    expect(describeUrl('mongodb+srv://cluster.example.net')).toStrictEqual({ hosts: 'cluster.example.net', dbName: undefined });
  });
});

describe.skipIf(!inject('mongoUrl'))('openMongoStore on an existing database', () => {
  it('when the server restarts on the same database, then the store opens again and the data is still there', async () => {
    const url = `${inject('mongoUrl').replace(/\/$/, '')}/reopen_${process.pid}_${Date.now().toString(36)}`;
    const first = await openMongoStore({ url });
    await first.ensureUser({ userId: 'u1', channelId: 'webchat', userData: { name: 'Ada' }, now: 1000 });
    await first.close();
    const second = await openMongoStore({ url });
    try {
      expect((await second.getUser('u1'))?.userData).toEqual({ name: 'Ada' });
    } finally {
      await second.close();
    }
  });
});
