import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestServer,
} from '../test/start-test-server.ts';

/** The bot's own limit on calls in a run without input (settings.maxCallsWithoutInput). */
const MAX_CALLS = 4;
/** INTEGRATION_USER_RATE_LIMIT for this server: bursts of at most this many calls per user and service. */
const PER_MINUTE = 2;

/** A bot author's slip: a sync and an async call, then a goto back to the first, with no input between. */
function definition(up: string) {
  return {
    settings: {
      id: 'loops',
      name: 'Loop bot',
      startDialog: 'home',
      fallbackText: 'Sorry, something got stuck.',
      maxCallsWithoutInput: MAX_CALLS,
    },
    integrations: {
      services: {
        orders: { baseUrl: `${up}/orders/` },
        tracking: { baseUrl: `${up}/tracking/` },
        stock: { baseUrl: `${up}/stock/` },
      },
    },
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hi', type: 'message', text: 'Home.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'loop',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'orders',
            params: { userId: '{{userId}}' },
          },
          {
            id: 'track',
            type: 'integration',
            integration: 'sendTrackingEvent',
            service: 'tracking',
            timing: 'async',
            params: { event: 'looped', userId: '{{userId}}' },
          },
          { id: 'again', type: 'goto', dialog: 'loop', step: 'call' },
        ],
      },
      {
        id: 'stock',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'stock',
            params: { userId: '{{userId}}' },
            onError: 'dialog:busy',
          },
          { id: 'said', type: 'message', text: 'In stock.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'busy',
        steps: [
          { id: 'said', type: 'message', text: 'Too many questions at once, please try again in a minute.' },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`input-free loops through integration steps (${leg.name})`, () => {
    let upstream: Upstream;
    let server: TestServer;
    let dir: string;
    const calls = (service: string) => upstream.seen.filter((r) => r.url.startsWith(`/${service}/`)).length;

    beforeAll(async () => {
      upstream = await startUpstream((req, res) =>
        json(res, req.url.startsWith('/tracking/') ? 202 : 200, req.url.startsWith('/tracking/') ? {} : []),
      );
      dir = await mkdtemp(path.join(tmpdir(), 'loop-bot-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(definition(upstream.url)));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        INTEGRATION_USER_RATE_LIMIT: String(PER_MINUTE),
        LOG_LEVEL: 'trace',
      });
    });
    afterAll(async () => {
      await server?.stop();
      await upstream?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when a sync and an async step loop with no input, then the calls stop at the bot limit, the user hears the fallback and the log names the dialog and step', async () => {
      const client = connectClient(server.url);
      try {
        await eventually('the greeting', () => botTexts(client.items).includes('Home.'));
        await client.emitWithAck('start_dialog', { dialogId: 'loop' });
        await eventually('the fallback', () => botTexts(client.items).includes('Sorry, something got stuck.'));
        // Two rounds of sync + async, then the third sync call is refused by the budget.
        await eventually('the async calls', () => calls('tracking') === MAX_CALLS / 2);
        expect(calls('orders')).toBe(MAX_CALLS / 2);
        const warning = server.logs.find((line) => line.code === 'call_limit');
        expect(warning).toMatchObject({ dialogId: 'loop', stepId: 'call', limit: MAX_CALLS, level: 40 });
        // The run is over: nothing keeps calling once the user was answered (async jobs included).
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(calls('orders') + calls('tracking')).toBe(MAX_CALLS);
      } finally {
        client.disconnect();
      }
    });

    it("when one user's calls to a service pass INTEGRATION_USER_RATE_LIMIT, then the step fails as rate_limited, follows its onError and the service is not called", async () => {
      const client = connectClient(server.url);
      try {
        await eventually('the greeting', () => botTexts(client.items).includes('Home.'));
        for (let i = 0; i < PER_MINUTE + 1; i++) {
          const before = client.items.length;
          await client.emitWithAck('start_dialog', { dialogId: 'stock' });
          await eventually(`answer ${i + 1}`, () => botTexts(client.items.slice(before)).length > 0);
        }
        expect(botTexts(client.items).slice(1)).toEqual([
          ...Array(PER_MINUTE).fill('In stock.'),
          'Too many questions at once, please try again in a minute.',
        ]);
        expect(calls('stock')).toBe(PER_MINUTE);
        expect(server.logs.find((line) => line.code === 'integration_rate_limited')).toMatchObject({
          service: 'stock',
          stepId: 'call',
          dialogId: 'stock',
        });
      } finally {
        client.disconnect();
      }
    });
  });
}
