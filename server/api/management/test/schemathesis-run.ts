import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { invite, setUpOwner, type StudioClient } from '../../../studio-server/test/studio-client.ts';
import { BOT_ID, KEY, encodeAddress, seedLogs, seedUser, startManagementServer } from './helpers.ts';

/** Provisioned by scripts/provision.mjs (pinned version, in a virtual environment under .cache/). */
const SCHEMATHESIS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../.cache/schemathesis/bin/schemathesis',
);
const CI = process.env.CI === 'true';
const missing = existsSync(SCHEMATHESIS) ? '' : `${SCHEMATHESIS} is missing: run \`npm run provision\``;
if (missing && !CI) console.warn(`\n!!! SKIPPED the schemathesis contract run: ${missing}\n`);

/**
 * Every connector configured, so each vendor webhook is served and checked like the rest (a forged or
 * missing signature refused with its 4xx); the vendors' APIs point at a closed loopback port, as no
 * generated request can carry a valid signature and nothing is ever sent.
 */
const NOWHERE = 'http://127.0.0.1:9';
const EVERY_CHANNEL = {
  TELEGRAM_BOT_TOKEN: '123456789:schemathesis-telegram-token-0123',
  TELEGRAM_WEBHOOK_SECRET: 'schemathesis-telegram-secret-0123',
  TELEGRAM_API_URL: NOWHERE,
  WHATSAPP_ACCESS_TOKEN: 'schemathesis-whatsapp-access-token-0123',
  WHATSAPP_PHONE_NUMBER_ID: '1234567890',
  WHATSAPP_APP_SECRET: 'schemathesis-whatsapp-app-secret-0123',
  WHATSAPP_VERIFY_TOKEN: 'schemathesis-verify-token-0123',
  WHATSAPP_API_URL: NOWHERE,
  MESSENGER_PAGE_ACCESS_TOKEN: 'schemathesis-messenger-page-token-0123',
  MESSENGER_APP_SECRET: 'schemathesis-messenger-app-secret-0123',
  MESSENGER_VERIFY_TOKEN: 'schemathesis-messenger-verify-0123',
  MESSENGER_API_URL: NOWHERE,
  TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`,
  TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef',
  TWILIO_SMS_FROM: '+15017122661',
  TWILIO_WHATSAPP_FROM: '+14155238886',
  TWILIO_API_URL: NOWHERE,
  PUBLIC_URL: 'http://127.0.0.1:1',
  SLACK_BOT_TOKEN: 'xoxb-0123456789-schemathesis-token',
  SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
  SLACK_API_URL: NOWHERE,
  BOTFRAMEWORK_APP_ID: '8d3c2a4e-5b6f-4a1b-9c2d-3e4f5a6b7c8d',
  BOTFRAMEWORK_APP_PASSWORD: 'schemathesis-bot-framework-secret',
  BOTFRAMEWORK_TOKEN_URL: `${NOWHERE}/token`,
  BOTFRAMEWORK_OPENID_URL: `${NOWHERE}/openid`,
};

/** Examples per operation and phase: about 4,000 requests a store leg (the studio's about 1,200 of them), 30 to 60 s on an idle machine; the seed makes every run the same. */
const MAX_EXAMPLES = 100;
const STUDIO_MAX_EXAMPLES = 20;
const SEED = 7;
/**
 * The MongoDB leg runs half as many examples an operation (the analyst's run and the seed unchanged). The document
 * and the handlers are the same on both legs; what is the leg's own (how the store takes odd ids, field names and
 * cursors) shows within half, and its test server made the leg twice as long as SQLite's (505 s against 237 s in CI).
 */
const LEG_SHARE = { sqlite: 1, mongo: 0.5 } as const;

/**
 * What no schema can state, told to schemathesis (the test server listens on loopback, so
 * /metrics needs no key there: its security lists "none" as one choice):
 * - a trigger's address_base64 must decode to a user address of this bot: every
 *   trigger case uses a real one, so the rest of the request (dialog, mode, body)
 *   is held to "valid means accepted";
 * - an export (and the audit trail's) refuses a cursor it did not hand out and fromTimestamp > toTimestamp
 *   (a cross-parameter rule), both with 400: the export operations allow that 400
 *   for schema-valid requests. Every other check still applies to them.
 */
function config(address: string, studioToken: string, share: number): string {
  const examples = (n: number) => Math.round(n * share);
  return [
    // In the file rather than on the command line, where it would override the studio's own number below.
    `generation.max-examples = ${examples(MAX_EXAMPLES)}`,
    '',
    // The studio's operations take an editor's API token (the function key does not open them).
    '[auth.openapi.studioToken]',
    `bearer = "${studioToken}"`,
    '',
    // A valid request may still name a version that does not exist, one that is live already, a stale base or revision,
    // a move nobody would be stranded on, or a definition with problems: each a catalogued 4xx, not a rejection of valid data.
    '[[operations]]',
    'include-path-regex = "^/studio/api/(versions|draft|check|publish|import)"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "409", "413", "422"]',
    // Each save, check and plan runs every check `chatbot check` runs: fewer examples keep the run's time.
    `generation.max-examples = ${examples(STUDIO_MAX_EXAMPLES)}`,
    '',
    // Revoking a token by an id read from the token list would revoke the run's own token halfway through:
    // revocation is covered by the studio's own tests instead.
    '[[operations]]',
    'include-path-regex = "^/studio/api/tokens/"',
    'include-method = "DELETE"',
    'enabled = false',
    '',
    // Likewise "log out everywhere" with apiTokens would end the run's own token.
    '[[operations]]',
    'include-path = "/studio/api/logout-everywhere"',
    'enabled = false',
    '',
    // The people side, as an editor: a valid request may still be a wrong password (401, or 400 for the current one),
    // an owner's operation (403 naming the role), a link or id that does not exist (404), a taken email or the
    // token limit (409), or the sign-in limit (429).
    '[[operations]]',
    'include-path-regex = "^/studio/api/(sign-in-options|login|setup|session|logout|sessions|password|accounts|invitations|tokens|secrets|audit|oidc)"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "409", "429"]',
    `generation.max-examples = ${examples(STUDIO_MAX_EXAMPLES)}`,
    '',
    // The misses, as an editor: a valid range may still run backwards or over 366 days (two parameters together,
    // which a schema cannot say), an added input may name an intent or FAQ pair the draft lacks (404), and the
    // draft may have moved on since the revision sent (409).
    '[[operations]]',
    'include-path-regex = "^/studio/api/insights/misses"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "409"]',
    '',
    // The preview's channel view takes a bot message whose bounds, all at their most, are more than the studio's
    // 16 KiB body: an invalid message that is also that large is refused with 413 before it is read, which is a
    // refusal too (a clear error, nothing done).
    '[[operations]]',
    'include-path = "/studio/api/preview/channels"',
    'checks.negative_data_rejection.expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]',
    '',
    '[[operations]]',
    'include-path-regex = "^/api/management/trigger/"',
    `parameters = { address_base64 = "${address}" }`,
    '',
    '[[operations]]',
    'include-path-regex = "^/api/management/(export/|audit$)"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]',
    '',
    // A schema-valid subscription is still refused when its target may not be called (the SSRF
    // rules need a host that resolves to a public address, which nothing does here), and a
    // schema-valid id is a 404 until a subscription of that id exists.
    '[[operations]]',
    'include-path-regex = "^/api/management/subscriptions"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "404", "409", "429"]',
    // Six small operations: fewer examples each keep the run's length about what it was.
    `generation.max-examples = ${examples(25)}`,
    '',
    // Open without a key on a loopback-only server without METRICS_TOKEN, as the document says.
    '[[operations]]',
    'include-path = "/metrics"',
    'checks.ignored_auth.enabled = false',
    '',
  ].join('\n');
}

/** The analyst's run: the insights and the studio's exports, refused to the editor above; fewer examples, to keep the time small. */
const ANALYST_MAX_EXAMPLES = 15;

/**
 * The insights and the studio's exports as an analyst (they refuse an editor's token with 403, so
 * the run above only ever reaches their refusal). A valid request may still name a user-data field
 * without a value, a range the wrong way round or too long, a field the bot does not declare or a
 * cursor not handed out (400), or a user or version that does not exist (404). Erasing a user is the
 * owners': not run here (the insights API tests erase as an owner).
 */
function analystConfig(analystToken: string): string {
  return [
    `generation.max-examples = ${ANALYST_MAX_EXAMPLES}`,
    '',
    '[auth.openapi.studioToken]',
    `bearer = "${analystToken}"`,
    '',
    '[[operations]]',
    'include-path-regex = "^/studio/api/(insights|export)/"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404"]',
    '',
    // Adding misses to a draft is an editor's: an analyst's 403 there is the answer, not a rejection of valid data
    // (the editor's run covers it, and the misses' own tests the 403).
    '[[operations]]',
    'include-path-regex = "^/studio/api/insights/misses/add$"',
    'enabled = false',
    '',
  ].join('\n');
}

/** What a failed run found: schemathesis' FAILURES section when there is one (its tail is warnings about coverage), else the tail. */
function report(output: string): string {
  const failures = /=+ FAILURES =+\n[\s\S]*?(?=\n=+ [A-Z][A-Za-z ]+ =+\n)/.exec(output)?.[0];
  return (failures ?? output).slice(failures ? 0 : -6000).slice(0, 12_000);
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: the server under test runs in this very process.
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * The schemathesis run against one store leg. Each leg is a test file of its own
 * (schemathesis-sqlite.test.ts, schemathesis-mongo.test.ts), so the two run side by side:
 * schemathesis' case generation is single-threaded Python, most of a leg's time.
 */
export function describeSchemathesis(legName: 'sqlite' | 'mongo'): void {
  const leg = storeLegs().find((candidate) => candidate.name === legName)!;
  // Under CI a missing schemathesis is not skipped: the test below fails and says why.
  describe.skipIf(leg.skip || (missing && !CI))(`schemathesis against the OpenAPI document (${leg.name})`, () => {
    let server: TestServer;
    let work: string;
    let owner: StudioClient;

    beforeAll(async () => {
      work = await mkdtemp(path.join(tmpdir(), 'chatbot-schemathesis-'));
      server = await startManagementServer({
        ...leg.env(),
        ...EVERY_CHANNEL,
        MANAGEMENT_RATE_LIMIT: '1000000',
        LOG_LEVEL: 'warn',
      });
      owner = await setUpOwner(server.url, server.studio.setupLink!);
      // Records in every shape the exports return, so response checks have something to check.
      const t = Date.UTC(2026, 5, 1);
      await seedUser(server.store, 's-1', t, { email: 's1@example.com', score: 7, tags: ['a'] });
      await seedUser(server.store, 's-2', t + 1000, { name: 'Two' });
      await seedLogs(server.store, 'outgoingEmail', [
        {
          userId: 's-1',
          timestamp: t,
          data: {
            body: 'Hi',
            from: 'bot@example.com',
            recipients: ['a@example.com'],
            replyTo: null,
            stepId: 's',
            subject: 'Hello',
          },
        },
      ]);
      await seedLogs(server.store, 'fuzzyQuestionAnswerLog', [
        {
          userId: 's-1',
          timestamp: t,
          data: {
            intent: 'hours',
            score: 0.8,
            text: 'when open',
            stepId: 'f',
            dialogId: 'd',
            matched: true,
            otherClassifications: [],
          },
        },
      ]);
      // A conversation of s-1 today with a page event, so the insights' answers have a summary and an event to check.
      const now = Date.now();
      await server.insights.store.record({
        counts: [{ day: Math.floor(now / 86_400_000), version: 'unversioned', metric: 'conversations', n: 1 }],
        conversations: [
          {
            userId: 's-1',
            startedAt: now - 60_000,
            lastAt: now - 30_000,
            channel: 'webchat',
            version: 'unversioned',
            lastVersion: 'unversioned',
            steps: ['d/f'],
            lastStep: 'd/f',
            integrationError: false,
            messages: 2,
            text: 'when open',
            userData: { email: 's1@example.com' },
            events: [{ at: now - 45_000, kind: 'pageEvent', name: 'opened' }],
          },
        ],
      });
    });
    afterAll(async () => {
      await server?.stop();
      if (work) await rm(work, { recursive: true, force: true });
    });

    // The bound is generous: the run shares two cores with the browser stages (npm test), and the MongoDB leg's test server is its slowest part.
    it(
      'when schemathesis runs every check in every phase, then it finds nothing and the server logs no error',
      { timeout: 1_200_000 },
      async () => {
        expect(missing, missing).toBe('');
        const configFile = path.join(work, 'schemathesis.toml');
        const editor = await invite(owner, 'schemathesis@example.com', 'editor');
        const token = (await editor.post('/studio/api/tokens', { name: 'schemathesis' })).body.token as string;
        await writeFile(
          configFile,
          config(
            encodeAddress({ bot: BOT_ID, user: 'schemathesis', channelId: 'webchat' }, 'base64url'),
            token,
            LEG_SHARE[legName],
          ),
        );
        const started = Date.now();
        const { code, output } = await run(
          SCHEMATHESIS,
          [
            '--config-file',
            configFile,
            'run',
            `${server.url}/api/management/openapi.json`,
            '--header',
            `x-functions-key: ${KEY}`,
            '--checks',
            'all',
            '--phases',
            'examples,coverage,fuzzing,stateful',
            '--seed',
            String(SEED),
            '--generation-database',
            'none',
            '--no-color',
          ],
          work,
        );
        const cases = /(\d+) generated/.exec(output)?.[1] ?? '?';
        console.log(
          `[schemathesis ${leg.name}] ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, exit code ${code}`,
        );
        expect(code, report(output)).toBe(0);
        expect(Number(cases)).toBeGreaterThan(1000);
        expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      },
    );

    it(
      'when schemathesis runs the insights and the studio exports with an analyst token, then it finds nothing and the server logs no error',
      { timeout: 600_000 },
      async () => {
        expect(missing, missing).toBe('');
        const configFile = path.join(work, 'schemathesis-analyst.toml');
        const analyst = await invite(owner, 'schemathesis-analyst@example.com', 'analyst');
        const token = (await analyst.post('/studio/api/tokens', { name: 'schemathesis analyst' })).body.token as string;
        await writeFile(configFile, analystConfig(token));
        const started = Date.now();
        const { code, output } = await run(
          SCHEMATHESIS,
          [
            '--config-file',
            configFile,
            'run',
            `${server.url}/api/management/openapi.json`,
            '--include-path-regex',
            '^/studio/api/(insights|export)/',
            '--exclude-method',
            'DELETE',
            '--checks',
            'all',
            '--phases',
            'examples,coverage,fuzzing',
            '--seed',
            String(SEED),
            '--generation-database',
            'none',
            '--no-color',
          ],
          work,
        );
        const cases = /(\d+) generated/.exec(output)?.[1] ?? '?';
        console.log(
          `[schemathesis ${leg.name}, analyst] ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, exit code ${code}`,
        );
        expect(code, report(output)).toBe(0);
        expect(Number(cases)).toBeGreaterThan(50);
        expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
      },
    );
  });
}
