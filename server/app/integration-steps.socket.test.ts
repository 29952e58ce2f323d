import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotMessage, Session } from '../../shared/protocol.ts';
import { json, startUpstream, type Upstream } from '../integrations/test/upstream.ts';
import {
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestClient,
  type TestServer,
} from '../test/start-test-server.ts';

/** A port nothing listens on: a call there fails as a network error. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const FAILURES = { down: 'network', slow: 'timeout', fail: 'status', garbage: 'invalid_body' } as const;
const POLICIES = ['fatal', 'dialog', 'flag'] as const;

function definition(up: string, downPort: number) {
  const failing = Object.keys(FAILURES).flatMap((service) =>
    POLICIES.map((policy) => ({
      id: `${service}-${policy}`,
      steps: [
        {
          id: 'call',
          type: 'integration',
          integration: 'listUserEvents',
          service,
          params: { userId: '{{userId}}' },
          timeoutMs: 300,
          onError: policy === 'fatal' ? 'fatal' : policy === 'dialog' ? 'dialog:rescued' : 'flag:broke',
          ...(policy === 'fatal' ? { errorText: 'It broke for good.' } : {}),
        },
        {
          id: 'check',
          type: 'condition',
          branches: [{ when: { variable: 'broke', op: 'equals', value: true }, then: 'flagged' }],
        },
        { id: 'fine', type: 'message', text: 'Not flagged.', next: 'end' },
        { id: 'flagged', type: 'message', text: 'Flagged {{brokeError}}.' },
        { id: 'end', type: 'end' },
      ],
    })),
  );
  return {
    settings: { id: 'calls', name: 'Integration bot', startDialog: 'home' },
    integrations: {
      services: {
        ok: { baseUrl: `${up}/ok/` },
        mine: { baseUrl: `${up}/ok/`, auth: { type: 'bearer-user' } },
        slow: { baseUrl: `${up}/slow/` },
        fail: { baseUrl: `${up}/fail/` },
        garbage: { baseUrl: `${up}/garbage/` },
        down: { baseUrl: `http://127.0.0.1:${downPort}/` },
      },
      datasets: [{ name: 'spots', source: { service: 'ok', url: 'spots' } }],
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
        id: 'rescued',
        steps: [
          { id: 'r', type: 'message', text: 'Rescued.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'events',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'ok',
            params: { userId: '{{userId}}' },
            mapping: '@cards',
            output: 'cards',
          },
          { id: 'show', type: 'message', text: 'Your events:', cardsFrom: 'cards' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'mine',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'listUserEvents',
            service: 'mine',
            params: { userId: 'me' },
            output: 'mine',
          },
          { id: 'show', type: 'message', text: 'Mine: {{mine.0.name}}' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'track',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'sendTrackingEvent',
            service: 'ok',
            params: { event: 'clicked', userId: '{{userId}}' },
          },
          { id: 'said', type: 'message', text: 'Tracked.' },
          { id: 'end', type: 'end' },
        ],
      },
      {
        id: 'spots',
        steps: [
          {
            id: 'call',
            type: 'integration',
            integration: 'queryDataset',
            params: { dataset: 'spots', tags: ['cafe'], lat: 52.23, lon: 21.01, radiusKm: 5 },
            mapping: '@cards',
            output: 'near',
          },
          { id: 'show', type: 'message', cardsFrom: 'near', noCardsText: 'Nothing near.' },
          { id: 'end', type: 'end' },
        ],
      },
      ...failing,
    ],
  };
}

function upstreamHandler(): Parameters<typeof startUpstream>[0] {
  return async (req, res) => {
    const [, base, ...rest] = req.url.split('/');
    const route = rest.join('/');
    if (base === 'slow') await new Promise((resolve) => setTimeout(resolve, 1500));
    if (base === 'fail') return json(res, 500, { error: 'boom' });
    if (base === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not json</html>');
      return;
    }
    if (route.startsWith('users/')) return json(res, 200, [{ id: 1, name: 'Meetup', date: '2030-05-01T18:00:00Z' }]);
    if (route === 'tracking-events') return json(res, 202, {});
    if (route === 'spots') {
      return json(res, 200, [
        { id: 's1', name: 'Near café', tags: ['cafe'], lat: 52.231, lon: 21.011 },
        { id: 's2', name: 'Far café', tags: ['cafe'], lat: 50.06, lon: 19.93 },
        { id: 's3', name: 'Near park', tags: ['park'], lat: 52.232, lon: 21.012 },
      ]);
    }
    return json(res, 404, {});
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`integration steps through a real server and socket (${leg.name})`, () => {
    let upstream: Upstream;
    let server: TestServer;
    let client: ReturnType<typeof connectClient>;
    let session: Session;
    let dir: string;
    const typing: boolean[] = [];

    beforeAll(async () => {
      upstream = await startUpstream(upstreamHandler());
      dir = await mkdtemp(path.join(tmpdir(), 'integration-bot-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(definition(upstream.url, await closedPort())));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        INTEGRATION_ALLOWED_HOSTS: '127.0.0.1',
        WEBCHAT_RATE_LIMIT: '10000',
      });
      client = connectClient(server.url, { user: { authToken: 'user-token-1' } });
      client.on('typing', (on) => typing.push(on));
      session = await new Promise<Session>((resolve) => client.once('session', resolve));
      await eventually('the greeting', () =>
        client.items.some((i) => i.message.type === 'text' && i.message.text === 'Home.'),
      );
    });
    afterAll(async () => {
      client?.disconnect();
      await server?.stop();
      await upstream?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** Starts a dialog and waits for the bot message that `done` picks among what follows. */
    async function run(dialogId: string, done: (message: BotMessage) => boolean): Promise<BotMessage[]> {
      const before = client.items.length;
      await (client as TestClient).emitWithAck('start_dialog', { dialogId });
      const after = () =>
        client.items.slice(before).flatMap((i) => (i.from === 'bot' ? [i.message as BotMessage] : []));
      await eventually(`the answer of ${dialogId}`, () => after().some(done));
      return after();
    }

    it('when a synchronous listUserEvents step runs, then the widget sees typing on and off and the events arrive as a carousel', async () => {
      typing.length = 0;
      const messages = await run('events', (m) => m.type === 'carousel');
      expect(messages).toEqual([
        { type: 'text', text: 'Your events:' },
        { type: 'carousel', cards: [{ title: 'Meetup', subtitle: '1 May 2030, 18:00 UTC' }] },
      ]);
      expect(typing).toEqual([true, false]);
      expect(upstream.seen.some((r) => r.method === 'GET' && r.url === `/ok/users/${session.userId}/events`)).toBe(
        true,
      );
    });

    it("when a service uses the user's bearer token, then the token the page passed at init reaches the upstream", async () => {
      await run('mine', (m) => m.type === 'text' && m.text === 'Mine: Meetup');
      const call = upstream.seen.find((r) => r.url === '/ok/users/me/events');
      expect(call?.headers.authorization).toBe('Bearer user-token-1');
    });

    it('when an asynchronous step runs, then the tree goes on at once and the durable job delivers the call', async () => {
      const messages = await run('track', (m) => m.type === 'text' && m.text === 'Tracked.');
      expect(messages).toEqual([{ type: 'text', text: 'Tracked.' }]);
      const call = await eventually('the tracking call', () =>
        upstream.seen.find((r) => r.url === '/ok/tracking-events'),
      );
      expect(JSON.parse(call.body)).toEqual({ event: 'clicked', userId: session.userId, properties: {} });
    });

    it('when a background dataset is queried by tag and radius, then only the near matching rows come back as cards', async () => {
      const messages = await run('spots', (m) => m.type === 'carousel' || m.type === 'text');
      expect(messages).toEqual([
        {
          type: 'carousel',
          cards: [{ title: 'Near café', subtitle: expect.stringMatching(/km away$/) as unknown as string }],
        },
      ]);
    });

    for (const [service, kind] of Object.entries(FAILURES)) {
      it(`when the call fails with ${kind}, then fatal shows a fatal notice and ends, dialog goes there, flag sets the variable the tree branches on`, async () => {
        const fatal = await run(`${service}-fatal`, (m) => m.type === 'notice');
        expect(fatal.at(-1)).toEqual({ type: 'notice', level: 'fatal', text: 'It broke for good.' });
        const rescued = await run(`${service}-dialog`, (m) => m.type === 'text' && m.text === 'Rescued.');
        expect(rescued.map((m) => m.type)).toEqual(['text']);
        const flagged = await run(`${service}-flag`, (m) => m.type === 'text' && m.text.startsWith('Flagged'));
        expect(flagged).toEqual([{ type: 'text', text: `Flagged ${kind.replace(/_/g, '\\_')}.` }]);
      });
    }

    it('when a failure was handled, then the failing call is in the integration log with its error', async () => {
      const rows = [];
      for await (const row of server.store.readLogs('integrationLog', {}))
        rows.push(row.data as Record<string, unknown>);
      expect(rows.some((r) => String(r.url).includes('/fail/') && r.responseStatus === 500)).toBe(true);
    });
  });
}
