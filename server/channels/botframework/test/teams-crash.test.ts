import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerChild, type ServerChild } from '../../../test/server-child.ts';
import { eventually, storeLegs } from '../../../test/start-test-server.ts';
import { APP_ID, post, startBotFrameworkStandIn, teamsActivity, teamsSettings } from './bot-framework-stand-in.ts';
import { teamsBot } from './teams-bot.ts';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`Teams across a crash (${leg.name})`, () => {
    it('when the process is killed after the webhook answered 200 and while the answers were on their way, then they arrive after the restart, once', async () => {
      const standIn = await startBotFrameworkStandIn();
      const dir = await mkdtemp(path.join(tmpdir(), 'teams-crash-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(teamsBot()));
      const env: Record<string, string> = {
        ...leg.env(),
        DATA_DIR: dir,
        BOT_DEFINITION: file,
        ...teamsSettings(standIn),
        JOB_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
      };
      const conversation = 'a:1crash-3001';
      const said = () =>
        standIn.activities
          .filter((seen) => seen.status === 201 && seen.conversationId === conversation)
          .map((seen) => String(seen.activity.text ?? '<card>'));
      let server: ServerChild | undefined = await startServerChild(env);
      try {
        // The first answer needs the bot's token: held, so the process dies with the activity taken and its answers not sent.
        standIn.holdTokens();
        const installed = teamsActivity(standIn.url, conversation, {
          type: 'conversationUpdate',
          membersAdded: [{ id: `28:${APP_ID}` }],
        });
        expect(
          (await post(`${server.url}/api/webhooks/teams`, installed, await standIn.sign(standIn.url))).status,
        ).toBe(200);
        await eventually('the answer to be under way', () => standIn.heldTokens() > 0, 20_000);
        await server.kill();
        standIn.release();
        expect(said()).toEqual([]);

        server = await startServerChild(env);
        await eventually('the answers after the restart', () => said().includes('Pick a plan.'), 30_000);
        // The Bot Framework delivering it again changes nothing.
        expect(
          (await post(`${server.url}/api/webhooks/teams`, installed, await standIn.sign(standIn.url))).status,
        ).toBe(200);
        await post(
          `${server.url}/api/webhooks/teams`,
          teamsActivity(standIn.url, conversation, { text: 'Basic' }),
          await standIn.sign(standIn.url),
        );
        await eventually('a later answer', () => said().includes('Say something.'), 20_000);
        expect(said()).toEqual(['Welcome.', 'Pick a plan.', '<card>', 'Say something.']);
      } finally {
        await server?.stop();
        await standIn.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
