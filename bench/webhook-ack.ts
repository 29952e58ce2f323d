// Webhook acknowledgement: signed vendor webhooks at a stated rate (autocannon's overallRate,
// latencies corrected for coordinated omission), a different user per request, against the
// server on SQLite in a child process (bench/webhook-child.ts). Each 200 means the event is
// stored once under its unique (channel, event id) with its turn job; the turns run and the
// answers go to the vendors' stand-ins (in this process) meanwhile, as in production.
// Slack (an HMAC-SHA256 over the timestamp and the raw body per request) is measured beside
// Telegram (a secret header compared in constant time) in the same run: the difference is what
// the signature check and Slack's parsing cost.
// Goal (issue: channels): p99 <= 20 ms at 500 webhooks/s on one node (SQLite).
import autocannon from 'autocannon';
import { createHmac } from 'node:crypto';
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { channelTestBot } from '../server/channels/connector/test/channel-test-bot.ts';
import { startSlackStandIn } from '../server/channels/slack/test/slack-stand-in.ts';
import { startTelegramStandIn } from '../server/channels/telegram/test/telegram-stand-in.ts';
import { stealMeter, stealText } from './steal.ts';

const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);
const CONNECTIONS = Number(process.env.BENCH_WEBHOOK_CONNECTIONS ?? 20);
const GOAL_P99_MS = 20;
const SLACK_SECRET = 'benchSigningSecret0123456789abcd';
const TELEGRAM_SECRET = 'bench-telegram-secret-0123456789';

const slack = await startSlackStandIn();
const telegram = await startTelegramStandIn();
const dir = await mkdtemp(path.join(tmpdir(), 'bench-webhook-bot-'));
const bot = path.join(dir, 'bot.json');
await writeFile(bot, JSON.stringify(channelTestBot({ id: 'bench-bot', greeting: 'Hello.', userDataFields: [] })));
const proc = fork(new URL('./webhook-child.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    BENCH_BOT: bot,
    BENCH_SLACK_TOKEN: slack.token,
    BENCH_SLACK_SECRET: SLACK_SECRET,
    BENCH_SLACK_URL: slack.url,
    BENCH_TELEGRAM_TOKEN: telegram.token,
    BENCH_TELEGRAM_SECRET: TELEGRAM_SECRET,
    BENCH_TELEGRAM_URL: telegram.url,
  },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const url = await new Promise<string>((resolve) =>
  proc.once('message', (message: { url: string }) => resolve(message.url)),
);
const reading = () =>
  new Promise<{ cpu: NodeJS.CpuUsage; pending: number }>((resolve) => {
    proc.once('message', resolve as never);
    proc.send({ cmd: 'cpu' });
  });

let serial = 0;
/** A direct message from a new user, signed as Slack signs it. */
function slackRequest(request: autocannon.Request): autocannon.Request {
  const n = ++serial;
  const ts = `${1_700_000_000 + n}.000001`;
  const body = JSON.stringify({
    token: 'x',
    team_id: 'T0BENCH001',
    api_app_id: 'A0BENCH001',
    type: 'event_callback',
    event_id: `Ev0BENCH${n}`,
    event_time: Math.floor(Date.now() / 1000),
    authed_users: ['U0BOT0001'],
    event: {
      type: 'message',
      channel_type: 'im',
      channel: `D0BENCH${String(n).padStart(6, '0')}`,
      user: `U0BENCH${n}`,
      text: 'hello',
      ts,
      event_ts: ts,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SLACK_SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    ...request,
    body,
    headers: { ...request.headers, 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
  };
}
/** A /start from a new chat, with the secret token header. */
function telegramRequest(request: autocannon.Request): autocannon.Request {
  const n = ++serial;
  const body = JSON.stringify({
    update_id: n,
    message: {
      message_id: n,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 10_000_000 + n, type: 'private' },
      from: { id: 10_000_000 + n, is_bot: false, first_name: 'B' },
      text: '/start',
    },
  });
  return { ...request, body };
}

async function load(
  name: string,
  channel: string,
  setupRequest: (request: autocannon.Request) => autocannon.Request,
  headers: Record<string, string>,
) {
  // The previous run's turns finish first, so each run starts from an idle server.
  for (let now = await reading(); now.pending > 0; now = await reading())
    await new Promise((resolve) => setTimeout(resolve, 200));
  const before = await reading();
  const steal = stealMeter();
  const result = await autocannon({
    url: `${url}/api/webhooks/${channel}`,
    connections: CONNECTIONS,
    duration: SECONDS,
    overallRate: RATE,
    requests: [{ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, setupRequest }],
  });
  const after = await reading();
  const cpu = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1e6 / SECONDS;
  console.log(
    `webhook ${name} at ${RATE}/s (SQLite, ${CONNECTIONS} connections, ${SECONDS} s, overallRate, coordinated omission corrected): ` +
      `${Math.round(result['2xx'] / SECONDS)}/s acknowledged, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}; ` +
      `${after.pending} turn and send jobs still pending at the end; server CPU ${cpu.toFixed(2)} cores${stealText(steal())}`,
  );
  return result;
}

const telegramRun = await load('Telegram (reference: secret header)', 'telegram', telegramRequest, {
  'x-telegram-bot-api-secret-token': TELEGRAM_SECRET,
});
const slackRun = await load('Slack (v0 HMAC signature)', 'slack', slackRequest, {});
const refused =
  slack.calls.filter((call) => !call.ok).length + telegram.calls.filter((call) => call.status !== 200).length;
console.log(
  `webhook stand-ins: ${slack.calls.length} Slack and ${telegram.calls.length} Telegram sends, ${refused} refused`,
);
const met = [telegramRun, slackRun].every(
  (run) => run.latency.p99 <= GOAL_P99_MS && run['2xx'] >= RATE * SECONDS * 0.98,
);
console.log(`webhook goal (p99 <= ${GOAL_P99_MS} ms at ${RATE}/s, both channels): ${met ? 'met' : 'MISSED'}`);
proc.send({ cmd: 'stop' });
await new Promise((resolve) => proc.once('exit', resolve));
await slack.close();
await telegram.close();
await rm(dir, { recursive: true, force: true });
