import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerChild, type ServerChild } from '../../../test/server-child.ts';
import { eventually, storeLegs } from '../../../test/start-test-server.ts';
import { slackBot } from './slack-bot.ts';
import { directMessage, postToSlackWebhook } from './slack-requests.ts';
import { startSlackStandIn } from './slack-stand-in.ts';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Slack across a crash (${leg.name})`, () => {
    it('when the process is killed while an answer is on its way to Slack, then after the restart the answers go out, in order, and a retried event is not answered again', async () => {
      const standIn = await startSlackStandIn();
      const dir = await mkdtemp(path.join(tmpdir(), 'slack-crash-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(slackBot()));
      const env: Record<string, string> = {
        ...leg.env(),
        DATA_DIR: dir,
        BOT_DEFINITION: file,
        SLACK_BOT_TOKEN: standIn.token,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: standIn.url,
        PUBLIC_URL: 'https://bot.example.com',
        JOB_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
      };
      const channel = 'D0CRASH001';
      const said = () =>
        standIn.calls
          .filter((call) => call.ok && call.params.channel === channel)
          .map((call) => String(call.params.text));
      let server: ServerChild | undefined = await startServerChild(env);
      try {
        const first = directMessage(channel, 'U0CRASH01', 'hello');
        // The greeting's send is cut off: the turn has run and committed, its answers not yet at Slack.
        standIn.hold('Hello');
        expect((await postToSlackWebhook(`${server.url}/api/webhooks/slack`, first, { secret: SECRET })).status).toBe(
          200,
        );
        await eventually(
          'the greeting to be on its way',
          () => standIn.calls.some((call) => call.error === 'held'),
          20_000,
        );
        await server.kill();
        standIn.release();
        expect(said()).toEqual([]);

        server = await startServerChild(env);
        await eventually('the answers after the restart', () => said().length === 3, 30_000);
        // Slack retrying the first event (it had its 200 long ago, but may still) changes nothing.
        expect(
          (await postToSlackWebhook(`${server.url}/api/webhooks/slack`, first, { secret: SECRET, retryNum: 1 })).status,
        ).toBe(200);
        await postToSlackWebhook(`${server.url}/api/webhooks/slack`, directMessage(channel, 'U0CRASH01', 'Pro'), {
          secret: SECRET,
        });
        await eventually('a later answer', () => said().includes('Say something.'), 20_000);
        expect(said()).toEqual([
          'Hello &lt;@U0CRASH01&gt; &amp; welcome.',
          'Pick a plan.',
          'Pick a plan.',
          'You chose pro.',
          'Say something.',
        ]);
      } finally {
        await server?.stop();
        await standIn.close();
        await rm(dir, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
