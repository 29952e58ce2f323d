import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogKind, NewLogEntry, Store } from '../../../ports/store.ts';
import { TEST_FUNCTION_KEY, startTestServer, type TestServer } from '../../../test/start-test-server.ts';

export const FIXTURE_BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bot.json');
export const BOT_ID = 'mgmt-test';
export const KEY = TEST_FUNCTION_KEY;

/** A server running the fixture bot on the given store leg. */
export function startManagementServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ BOT_DEFINITION: FIXTURE_BOT, ...env });
}

export const keyed = (init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { 'x-functions-key': KEY, ...(init.headers as Record<string, string> | undefined) },
});

export function encodeAddress(address: unknown, alphabet: 'base64' | 'base64url' = 'base64'): string {
  return Buffer.from(JSON.stringify(address), 'utf8').toString(alphabet);
}

/** A user who wrote at `lastMessageAt`, with the given user data. */
export async function seedUser(
  store: Store,
  userId: string,
  lastMessageAt: number,
  userData: Record<string, unknown>,
): Promise<void> {
  const user = await store.ensureUser({ userId, channelId: 'webchat', userData, now: lastMessageAt });
  await store.updateUser(userId, user.version, { lastMessageAt, userData }, lastMessageAt);
}

export async function seedLogs(store: Store, kind: LogKind, entries: NewLogEntry[]): Promise<void> {
  await store.appendLogs(kind, entries);
}

/** Everything that could change under a request: users exported, jobs, transcript of a user. */
export async function snapshotStore(store: Store, userIds: readonly string[]): Promise<string> {
  const users: unknown[] = [];
  for await (const row of store.exportUsers({})) users.push(row);
  const extra: unknown[] = [];
  for (const id of userIds) extra.push(await store.getUser(id), await store.readTranscript(id, 0, 1000));
  return JSON.stringify({ users, extra });
}
