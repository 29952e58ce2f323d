/**
 * A terminal chat for bot authors over the generic bot REST channel:
 * `npm run chat -- <server url> <channel> <channel key> [user id]`.
 * Type text, or a number to press a listed button; what the bot says later
 * (timers, triggers) is fetched with GET …/messages every two seconds.
 */
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import type { TranscriptItem } from '../../shared/protocol.ts';
import { render, type Choice } from './render.ts';

const [url, channel, key, user = `author-${randomUUID().slice(0, 8)}`] = process.argv.slice(2);
if (!url || !channel || !key) {
  process.stderr.write('Usage: npm run chat -- <server url> <channel> <channel key> [user id]\n');
  process.exit(2);
}
const endpoint = `${url.replace(/\/$/, '')}/api/channels/${encodeURIComponent(channel)}/users/${encodeURIComponent(user)}/messages`;
let lastSeq = 0;
let choices: Choice[] = [];

function show(items: readonly TranscriptItem[]): void {
  const fresh = items.filter((item) => item.seq > lastSeq);
  if (fresh.length === 0) return;
  lastSeq = Math.max(lastSeq, ...fresh.map((item) => item.seq));
  const shown = render(fresh);
  // The numbers on screen are the latest batch's: a batch of the bot's words replaces them, even with none.
  if (shown.choices) choices = shown.choices;
  for (const line of shown.lines) process.stdout.write(`${line}\n`);
}

async function call(
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<{ messages?: TranscriptItem[]; events?: { name: string }[]; seq?: number } | undefined> {
  const response = await fetch(method === 'GET' ? `${endpoint}?after=${lastSeq}` : endpoint, {
    method,
    headers: { 'x-channel-key': key!, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as {
    error?: { code: string; message: string };
    messages?: TranscriptItem[];
    events?: { name: string }[];
    seq?: number;
  };
  if (answer.error) {
    process.stdout.write(`! ${answer.error.code}: ${answer.error.message}\n`);
    return undefined;
  }
  return answer;
}

process.stdout.write(
  `Talking to ${url} as "${user}" on channel "${channel}". Type a message, the number of a button listed since your last message, or /quit.\n`,
);
const terminal = createInterface({ input: process.stdin, output: process.stdout });
const poller = setInterval(
  () =>
    void call('GET')
      .then((answer) => answer?.messages && show(answer.messages))
      .catch(() => undefined),
  2000,
);
for await (const line of terminal) {
  const text = line.trim();
  if (text === '/quit') break;
  if (text === '') continue;
  const picked = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
  if (picked && 'url' in picked) {
    process.stdout.write(`(open ${picked.url} in a browser)\n`);
    continue;
  }
  const answer = await call(
    'POST',
    picked ? { ...picked.send, clientId: randomUUID() } : { type: 'text', clientId: randomUUID(), text },
  );
  // Replies first: a new user's start dialog comes before their own message's seq.
  if (answer?.messages) show(answer.messages);
  if (answer?.seq) lastSeq = Math.max(lastSeq, answer.seq);
}
clearInterval(poller);
terminal.close();
