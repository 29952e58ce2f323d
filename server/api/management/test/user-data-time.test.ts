import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../../shared/protocol.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../../../test/start-test-server.ts';
import { BOT_ID, FIXTURE_BOT, keyed } from './helpers.ts';

const at = (hh: number, mm: number) => Date.UTC(2026, 10, 21, hh, mm, 0);
const sec = (ms: number) => Math.floor(ms / 1000);

type Row = { userId: string; timestamp: string };

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`userData time range (${leg.name})`, () => {
    let server: TestServer;
    let now = at(10, 0);
    const get = async (query: string) =>
      (await (await fetch(`${server.url}/api/management/export/userData${query}`, keyed())).json()) as Row[];
    const trigger = (userId: string, dialogId: string) =>
      fetch(
        `${server.url}/api/trigger/${BOT_ID}/${dialogId}?userId=${encodeURIComponent(userId)}`,
        keyed({ method: 'POST' }),
      );

    beforeAll(async () => {
      server = await startTestServer({ ...leg.env(), BOT_DEFINITION: FIXTURE_BOT }, undefined, {
        clock: { now: () => now },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when a user writes at 10:00 and gets a triggered dialog at 10:05, then userData lists them at 10:00 and fromTimestamp=10:03 leaves them out', async () => {
      now = at(10, 0);
      const client = connectClient(server.url);
      const session = await new Promise<Session>((resolve) => client.once('session', resolve));
      await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
      const sent = await client.emitWithAck('message', { clientId: 'm1', text: 'Ada' });
      expect(sent.ok).toBe(true);
      await eventually('the reply', () => botTexts(client.items).includes('Thanks, Ada.'));

      now = at(10, 5);
      expect((await trigger(session.userId, 'operationSucceeded')).status).toBe(202);
      await eventually('the triggered dialog', () =>
        botTexts(client.items).some((text) => text.startsWith('Your operation succeeded')),
      );
      client.disconnect();

      const mine = (rows: Row[]) => rows.filter((row) => row.userId === session.userId);
      expect(mine(await get(''))).toEqual([expect.objectContaining({ timestamp: '2026-11-21T10:00:00.000Z' })]);
      expect(mine(await get(`?fromTimestamp=${sec(at(10, 3))}`))).toEqual([]);
      expect(mine(await get(`?fromTimestamp=${sec(at(10, 0))}&toTimestamp=${sec(at(10, 3))}`))).toHaveLength(1);
    });

    it('when a user who never wrote gets triggers, then they are listed at the time they were first stored, and later triggers do not move it', async () => {
      now = at(11, 0);
      expect((await trigger('never-wrote', 'operationFailed')).status).toBe(202);
      await eventually(
        'the first dialog',
        async () => (await server.store.readTranscript('never-wrote', 0, 10)).length > 0,
      );
      now = at(11, 30);
      expect((await trigger('never-wrote', 'operationSucceeded')).status).toBe(202);
      await eventually(
        'the second dialog',
        async () => (await server.store.readTranscript('never-wrote', 0, 10)).length > 1,
      );
      expect((await get(`?fromTimestamp=${sec(at(11, 0))}`)).map((row) => [row.userId, row.timestamp])).toEqual([
        ['never-wrote', '2026-11-21T11:00:00.000Z'],
      ]);
      expect(await get(`?fromTimestamp=${sec(at(11, 1))}`)).toEqual([]);
    });
  });
}
