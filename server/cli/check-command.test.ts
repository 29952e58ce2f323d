import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { MISTAKES } from './test/mistakes.ts';
import { runEntry, writeBot } from './test/run-process.ts';

const check = (...args: string[]) => runEntry('server/cli/main.ts', ['check', ...args]);
const bot = (steps: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    settings: { id: 'shop', name: 'Shop', startDialog: 'main' },
    userDataFields: ['name'],
    dialogs: [{ id: 'main', steps }],
    ...extra,
  });

describe('chatbot check', () => {
  it.each(MISTAKES.map((m) => [m.name, m] as const))(
    'when %s, then check exits 1 and prints the one line that says so',
    async (_name, mistake) => {
      const file = await writeBot(mistake.text, mistake.yaml ? 'bot.yaml' : 'bot.json');
      const { code, stdout } = await check(file);
      expect(code).toBe(1);
      expect(stdout.trimEnd().split('\n')).toEqual([mistake.expected]);
    },
  );

  it('when the demo bot is checked, then it is valid and check exits 0 saying so, without opening a store', async () => {
    const dataDir = path.join(tmpdir(), `check-no-store-${process.pid}-${Date.now()}`);
    const { code, stdout, stderr } = await runEntry('server/cli/main.ts', ['check', DEMO_BOT_DEFINITION], {
      DATA_DIR: dataDir,
    });
    expect(existsSync(dataDir)).toBe(false);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(`${DEMO_BOT_DEFINITION}: the bot definition is valid`);
  });

  it('when WhatsApp is configured and a dialog a trigger may start has no template, then check warns (exit 0), and says nothing once it has one or WhatsApp is not configured', async () => {
    const news = (template?: object) =>
      bot([{ id: 'hi', type: 'message', text: 'Hello.' }], {
        dialogs: [
          { id: 'main', steps: [{ id: 'hi', type: 'message', text: 'Hello.' }] },
          {
            id: 'shipped',
            ...(template ? { whatsappTemplate: template } : {}),
            steps: [{ id: 'told', type: 'message', text: 'Order {{triggerData.order}} has shipped.' }],
          },
        ],
      });
    const whatsApp = { WHATSAPP_PHONE_NUMBER_ID: '106540352242922' };
    const warned = await runEntry('server/cli/main.ts', ['check', await writeBot(news())], whatsApp);
    expect(warned.code).toBe(0);
    expect(warned.stdout.trimEnd().split('\n')).toEqual([
      'warning: dialogs[1]: dialog "shipped" may be started by a trigger and names no whatsappTemplate: with WhatsApp configured, a trigger for a user who last wrote more than 24 hours ago is refused (409 whatsapp_window_closed). Add "whatsappTemplate": { "name", "language", "parameters" } naming the template approved at Meta (docs/channels.md)',
    ]);
    const template = { name: 'order_shipped', language: 'en_US', parameters: ['{{triggerData.order}}'] };
    const quiet = await runEntry('server/cli/main.ts', ['check', await writeBot(news(template))], whatsApp);
    expect([quiet.code, quiet.stdout]).toEqual([0, '']);
    const twilio = await runEntry('server/cli/main.ts', ['check', await writeBot(news(template))], {
      TWILIO_WHATSAPP_FROM: '+14155238886',
    });
    expect(twilio.stdout).toContain(
      'warning: dialogs[1].whatsappTemplate: dialog "shipped"\'s template has no contentSid',
    );
    expect((await check(await writeBot(news()))).stdout).toBe('');
  });

  it('when a preset step names a secret that is not set, or lacks a parameter, then check names it as for any step type, and passes once both are right', async () => {
    const slack = (params: Record<string, unknown>) =>
      bot([
        { id: 'tell', type: 'integration', integration: 'slackPostMessage', params },
        { id: 'end', type: 'end' },
      ]);
    const unset = await check(
      await writeBot(slack({ webhookUrlSecret: 'SLACK_HOOK', text: 'New order from {{name}}' })),
    );
    expect(unset.code).toBe(1);
    expect(unset.stdout.trimEnd().split('\n')).toEqual([
      'dialogs[0].steps[0].params.webhookUrlSecret: the secret SLACK_HOOK is not set; set the environment variable SLACK_HOOK (or the studio secret of that name) to the value this step authenticates with',
    ]);
    const hook = { SLACK_HOOK: 'https://hooks.slack.com/services/T000/B000/xyz' };
    const missing = await runEntry(
      'server/cli/main.ts',
      ['check', await writeBot(slack({ webhookUrlSecret: 'SLACK_HOOK' }))],
      hook,
    );
    expect(missing.code).toBe(1);
    expect(missing.stdout.trimEnd().split('\n')).toEqual(['dialogs[0].steps[0].params: missing property "text"']);
    const right = await runEntry(
      'server/cli/main.ts',
      ['check', await writeBot(slack({ webhookUrlSecret: 'SLACK_HOOK', text: 'New order from {{name}}' }))],
      hook,
    );
    expect(right.code).toBe(0);
    expect(right.stdout + right.stderr).not.toContain('hooks.slack.com');
  });

  it('when several things are wrong, then each gets its own line', async () => {
    const file = await writeBot(
      bot([
        { id: 'hi', type: 'message', txt: 'hi', next: 'gone' },
        { id: 'ask', type: 'input', prompt: 'x', inputType: 'txt' },
      ]),
    );
    const { code, stdout } = await check(file);
    expect(code).toBe(1);
    expect(stdout.trimEnd().split('\n')).toEqual([
      'dialogs[0].steps[0].txt: unknown key "txt". Did you mean "text"?',
      'dialogs[0].steps[1].inputType: "txt" is not allowed. Did you mean "text"? Allowed: "text", "number", "email", "phone", "choice", "regex"',
    ]);
  });

  it('when --json is given, then the problems come as JSON with path, message, hint and severity', async () => {
    const file = await writeBot(bot([{ id: 'hi', type: 'message', text: 'hi', quick_replies: [] }]));
    const { code, stdout } = await check(file, '--json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      file,
      ok: false,
      problems: [
        {
          path: 'dialogs[0].steps[0].quick_replies',
          message: 'unknown key "quick_replies"',
          hint: 'did you mean "quickReplies"?',
          severity: 'error',
        },
      ],
    });
  });

  it('when a template names something no step sets and nothing is close, then it is a warning and check still exits 0', async () => {
    const file = await writeBot(bot([{ id: 'hi', type: 'message', text: 'Your coupon: {{couponCode}}' }]));
    const { code, stdout } = await check(file);
    expect(code).toBe(0);
    expect(stdout.trimEnd()).toBe(
      "warning: dialogs[0].steps[0].text: {{couponCode}} is set by no step, user-data field or built-in, so it renders empty unless the page's init data holds it. Declare it in userDataFields or set it in a step",
    );
  });

  it('when integration steps loop without waiting for the user, then check warns naming the loop', async () => {
    const file = await writeBot(
      bot(
        [
          {
            id: 'poll',
            type: 'integration',
            integration: 'http',
            params: { endpoint: 'https://status.example.com/' },
            output: 'status',
            onError: 'flag:down',
          },
          { id: 'again', type: 'goto', dialog: 'main', step: 'poll' },
        ],
        {},
      ),
    );
    const { code, stdout } = await check(file);
    expect(code).toBe(0);
    expect(stdout.trimEnd()).toBe(
      'warning: dialogs[0].steps[0]: the steps main/poll, main/again form a loop that calls outside the bot without waiting for the user; it stops after settings.maxCallsWithoutInput calls. Add an input step or a wait of at least 1s to the loop, or a condition that leaves it',
    );
  });

  it('when the definition is YAML, then it is checked the same and its syntax errors name the line and column', async () => {
    const good = await writeBot(
      'settings: { id: shop, name: Shop, startDialog: main }\n# comments are why authors want YAML\ndialogs:\n  - id: main\n    steps:\n      - { id: hi, type: message, text: hi }\n',
      'bot.yaml',
    );
    expect((await check(good)).code).toBe(0);
    const bad = await writeBot('settings:\n  id: shop\n  id: shop2\n', 'bot.yaml');
    const { code, stdout } = await check(bad);
    expect(code).toBe(1);
    expect(stdout.trimEnd()).toBe('line 3, column 3: not valid YAML: Map keys must be unique');
  });

  it('when no file or an unknown option is given, then check says how to call it and exits 2', async () => {
    const none = await check();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: chatbot check <bot.json|bot.yaml> [--json]');
    expect((await check('bot.json', '--fix')).stderr).toMatch(/^Unknown option --fix\. Usage:/);
  });

  it('when the file does not exist, then check names it and exits 1', async () => {
    const { code, stdout } = await check('/nonexistent/bot.json');
    expect(code).toBe(1);
    expect(stdout.trim()).toBe('(file): cannot be read (ENOENT). Check the path; BOT_DEFINITION names the file');
  });

  it('is the package bin and an npm script', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin.chatbot).toBe('dist/server/cli/main.js');
    expect(pkg.scripts.check).toBe('tsx server/cli/main.ts check');
  });
});
