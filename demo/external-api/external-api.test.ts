import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_ID, KEY, startManagementServer } from '../../server/api/management/test/helpers.ts';
import {
  botTexts,
  connectClient,
  eventually,
  storeLegs,
  type TestServer,
} from '../../server/test/start-test-server.ts';
import { createExternalApi } from './app.ts';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`demo external API, long operation (${leg.name})`, () => {
    let bot: TestServer;
    let api: ReturnType<typeof createExternalApi>;
    let http: Server;
    let apiUrl: string;
    const logged: string[] = [];

    beforeAll(async () => {
      bot = await startManagementServer(leg.env());
      api = createExternalApi({
        botUrl: bot.url,
        botId: BOT_ID,
        functionKey: KEY,
        operationMs: 20,
        successDialog: 'operationSucceeded',
        failureDialog: 'operationFailed',
        log: (m) => logged.push(m),
      });
      http = await new Promise<Server>((resolve) => {
        const s = api.listen(0, '127.0.0.1', () => resolve(s));
      });
      const address = http.address();
      apiUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await api?.pending();
      await new Promise((resolve) => http?.close(resolve));
      await bot?.stop();
    });

    for (const [outcome, text] of [
      ['success', /^Your operation succeeded: transaction TX-[0-9A-F]{8}\.$/],
      ['failure', /^Sorry, the operation failed/],
    ] as const) {
      it(`when the operation ends in ${outcome}, then the bot tells the connected user through the short trigger form`, async () => {
        const client = connectClient(bot.url);
        const session = await new Promise<{ userId: string }>((resolve) => client.once('session', resolve));
        const res = await fetch(`${apiUrl}/operations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: session.userId, outcome }),
        });
        expect(res.status).toBe(202);
        await eventually(`the ${outcome} message`, () => botTexts(client.items).some((t) => text.test(t)));
        expect(logged).toEqual([]);
        client.disconnect();
      });
    }
  });
}
