import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BotEvent, BotMessage, Session, TranscriptItem } from '../../shared/protocol.ts';
import type { LogKind, Store } from '../ports/store.ts';
import {
  botTexts,
  connectClient,
  eventually,
  startTestServer,
  storeLegs,
  type TestClient,
  type TestServer,
} from '../test/start-test-server.ts';
import { writeBot } from './test/every-step-bot.ts';
import { startSmsProvider, startSmtpServer } from './test/local-outlets.ts';

async function logs(store: Store, kind: LogKind) {
  const rows = [];
  for await (const row of store.readLogs(kind, {})) rows.push(row);
  return rows;
}

function sessionOf(client: TestClient): Promise<Session> {
  return new Promise((resolve) => client.once('session', resolve));
}

const lastBot = (items: readonly TranscriptItem[]) => [...items].reverse().find((i) => i.from === 'bot')?.message;
let clientIds = 0;
const send = (client: TestClient, text: string) => client.emitWithAck('message', { clientId: `c${++clientIds}`, text });

describe.each(storeLegs())('every step kind through a real socket on $name', ({ skip, env }) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let sms: Awaited<ReturnType<typeof startSmsProvider>>;
  let dir: string;

  beforeAll(async () => {
    if (skip) return;
    dir = await mkdtemp(path.join(tmpdir(), 'step-bot-'));
    smtp = await startSmtpServer();
    sms = await startSmsProvider();
    process.env.STEP_BOT_WAIT = '300ms';
    server = await startTestServer({
      ...env(),
      BOT_DEFINITION: await writeBot(dir),
      SMTP_URL: smtp.url,
      SMTP_FROM: 'bot@example.com',
      SMS_URL: sms.url,
      SMS_USERNAME: 'AC123',
      SMS_PASSWORD: 'sms-secret-token',
      SMS_FROM: '+15550001',
      WEBCHAT_RATE_LIMIT: '10000',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await sms?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  beforeEach((context) => {
    if (skip) context.skip(`store unavailable: ${skip}`);
  });

  it('when the start dialog runs, then message, image, carousel, input, condition, set, goto and end work, and URL buttons are tracked', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the first prompt', () => botTexts(client.items).includes('Your name?'));
    const [hello, pictures, carousel] = client.items.map((i) => i.message);
    expect(hello).toMatchObject({
      type: 'text',
      text: 'Hello *there*',
      quickReplies: [{ label: 'Menu', payload: 'menu' }],
    });
    expect(pictures).toEqual({ type: 'image', url: 'https://img.example.com/a.png', alt: 'A' });
    expect(carousel).toMatchObject({ type: 'carousel', cards: [{ title: 'Card' }] });
    const buttons = (hello as Extract<BotMessage, { type: 'text' }>).buttons ?? [];
    expect(buttons.slice(1)).toEqual([
      { kind: 'dialog', label: 'Mail', dialogId: 'mail' },
      { kind: 'postback', label: 'Yes', payload: 'yes' },
    ]);
    const tracked = buttons[0]?.kind === 'url' ? buttons[0].url : '';
    expect(tracked.startsWith(`${server.url}/r/`)).toBe(true);
    expect(tracked).not.toContain('docs.example.com');

    const click = await fetch(tracked, { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://docs.example.com/start?x=1');
    expect((await logs(server.store, 'urlTracker')).map((r) => ({ userId: r.userId, ...r.data }))).toContainEqual({
      userId: session.userId,
      domain: 'docs.example.com',
      url: 'https://docs.example.com/start?x=1',
    });
    const token = tracked.slice(tracked.lastIndexOf('/') + 1);
    // Change one character of the signature (never to itself, or the "tampered" token would be the real one).
    const changed = token.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${token.slice(0, -2)}${changed}${token.slice(-1)}`;
    expect(tampered).not.toBe(token);
    for (const bad of [
      tampered,
      'nonsense',
      `${Buffer.from(JSON.stringify([session.userId, 'https://evil.example'])).toString('base64url')}.abc`,
    ]) {
      const refused = await fetch(`${server.url}/r/${bad}`, { redirect: 'manual' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
      expect(await refused.text()).toContain('This link is not valid');
    }

    await send(client, 'Ada');
    await eventually('the age prompt', () => botTexts(client.items).includes('Your age?'));
    await send(client, 'old');
    await eventually('the retry prompt', () => botTexts(client.items).includes('A number, please.'));
    await send(client, '36');
    await eventually('the end', () => botTexts(client.items).includes('All done.'));
    expect(botTexts(client.items).slice(-2)).toEqual(['Ada is an adult.', 'All done.']);
    const user = await server.store.getUser(session.userId);
    expect(user).toMatchObject({ position: null, userData: { name: 'Ada' }, variables: { age: 36, group: 'adult' } });

    // Free text after the end: unprocessed, logged for the NLP log, answered with the fallback.
    await send(client, 'xyzzy plugh');
    await eventually('the fallback', () => botTexts(client.items).at(-1) === 'Sorry?');
    expect((await logs(server.store, 'nlpLog')).map((r) => r.data)).toContainEqual(
      expect.objectContaining({
        query: 'xyzzy plugh',
        processed: false,
        dialogId: null,
        stepId: null,
        stepType: null,
        modelId: expect.stringMatching(/^tfidf-/),
      }),
    );

    const tooLong = await send(client, 'x'.repeat(5000));
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'text_too_long' } });
    client.disconnect();
  });

  it('when the email step runs, then the message reaches the SMTP server with the templated subject and body, and outgoingEmail matches it', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await send(client, 'Grace');
    await client.emitWithAck('press', {
      clientId: `p${++clientIds}`,
      label: 'Mail',
      action: { kind: 'dialog', dialogId: 'mail' },
    });
    await eventually('the email prompt', () => botTexts(client.items).includes('Email?'));
    await send(client, 'grace@example.com');
    await eventually('the confirmation', () => botTexts(client.items).includes('Mail sent.'));

    const mail = await eventually('the mail', () => smtp.mails.find((m) => m.to.includes('grace@example.com')));
    expect(mail.to).toEqual(['grace@example.com', 'audit@example.com']);
    expect(mail.from).toBe('bot@example.com');
    expect(mail.subject).toBe('Hello Grace');
    expect(mail.body.trim()).toBe('Dear Grace,\nyour code is 42.');
    const rows = (await logs(server.store, 'outgoingEmail')).filter((r) => r.userId === session.userId);
    expect(rows.map((r) => r.data)).toEqual([
      {
        body: 'Dear Grace,\nyour code is 42.',
        from: 'bot@example.com',
        recipients: ['grace@example.com', 'audit@example.com'],
        replyTo: null,
        stepId: 'send',
        subject: 'Hello Grace',
      },
    ]);
    client.disconnect();
  });

  it('when the sms step runs, then the provider gets a form post with Basic auth, outgoingSms is written, and a failing provider leads to onError', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await send(client, 'Linus');
    await client.emitWithAck('start_dialog', { dialogId: 'text' });
    await eventually('the confirmation', () => botTexts(client.items).includes('SMS sent.'));
    const sent = sms.messages.at(-1);
    expect(sent?.authorization).toBe(`Basic ${Buffer.from('AC123:sms-secret-token').toString('base64')}`);
    expect(sent?.form).toMatchObject({ To: '+4712345678', From: '+15550001' });
    expect(sent?.form.Body).toMatch(new RegExp(`^Hi Linus ${server.url.replace(/[.]/g, '\\.')}/r/\\S+$`));
    const rows = (await logs(server.store, 'outgoingSms')).filter((r) => r.userId === session.userId);
    expect(rows.map((r) => r.data)).toEqual([
      {
        channel: 'sms',
        link: expect.stringContaining('/r/'),
        message: sent?.form.Body,
        provider: expect.stringMatching(/^http:127\.0\.0\.1:/),
        recipients: ['+4712345678'],
      },
    ]);

    sms.status.code = 500;
    try {
      await client.emitWithAck('start_dialog', { dialogId: 'text' });
      await eventually('the failure path', () => botTexts(client.items).includes('SMS failed.'));
    } finally {
      sms.status.code = 201;
    }
    expect(server.logText()).not.toContain('sms-secret-token');
    client.disconnect();
  });

  it('when a wait step times out, then the conversation moves on by itself; when another dialog starts first, the timer is cancelled', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await client.emitWithAck('start_dialog', { dialogId: 'wait' });
    await eventually('the timeout message', () => botTexts(client.items).includes('Time is up.'));

    await client.emitWithAck('start_dialog', { dialogId: 'long-wait' });
    const jobId = `timer:${session.userId}:long-wait.w`;
    expect(await server.store.getJob(jobId)).toMatchObject({ status: 'pending', kind: 'timer' });
    await client.emitWithAck('start_dialog', { dialogId: 'done' });
    await eventually('the cancelled job', async () => (await server.store.getJob(jobId))?.status === 'cancelled');
    client.disconnect();
  });

  it('when event and clearUserData steps run, then the page gets the bot event and a snapshot is written before the data is cleared', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    const events: BotEvent[] = [];
    client.on('bot_event', (event) => events.push(event));
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await send(client, 'Alan');
    await eventually('the age prompt', () => botTexts(client.items).includes('Your age?'));
    await client.emitWithAck('start_dialog', { dialogId: 'event' });
    await eventually('the event', () => events.length > 0);
    expect(events).toEqual([{ name: 'close-chat', payload: { who: 'Alan' } }]);

    await client.emitWithAck('start_dialog', { dialogId: 'forget' });
    await eventually('the confirmation', () => botTexts(client.items).includes('Forgotten.'));
    const snapshots = (await logs(server.store, 'userDataSnapshot')).filter((r) => r.userId === session.userId);
    expect(snapshots.map((r) => r.data)).toEqual([{ name: 'Alan', email: null }]);
    expect((await server.store.getUser(session.userId))?.userData).toEqual({});
    client.disconnect();
  });

  it('when nlp and faq steps get free text, then it is routed or answered, and the NLP and fuzzy logs say so', async () => {
    const client = connectClient(server.url);
    const session = await sessionOf(client);
    await eventually('the greeting', () => botTexts(client.items).includes('Your name?'));
    await client.emitWithAck('start_dialog', { dialogId: 'ask' });
    await eventually('the nlp prompt', () => botTexts(client.items).includes('What do you want?'));
    await send(client, 'I would like to order a pizza please');
    await eventually('the routed dialog', () => botTexts(client.items).includes('Ordering pizza.'));
    const nlpRows = (await logs(server.store, 'nlpLog')).filter((r) => r.userId === session.userId);
    expect(nlpRows.map((r) => r.data)).toEqual([
      expect.objectContaining({
        dialogId: 'ask',
        stepId: 'listen',
        stepType: 'nlp',
        query: 'I would like to order a pizza please',
        intent: 'order',
        processed: true,
      }),
    ]);
    // Every spec field is there, with the classifier's model id and a score that cleared the threshold.
    const nlpRow = nlpRows[0]?.data as {
      modelId: string;
      result: { score: number; threshold: number; dialog: string; classifications: unknown[] };
    };
    expect(nlpRow.modelId).toMatch(/^tfidf-/);
    expect(nlpRow.result.score).toBeGreaterThanOrEqual(nlpRow.result.threshold);
    expect(nlpRow.result.classifications[0]).toEqual({ intent: 'order', score: nlpRow.result.score });

    await client.emitWithAck('start_dialog', { dialogId: 'faq' });
    await eventually('the faq prompt', () => botTexts(client.items).includes('Ask me.'));
    await send(client, 'when are you open');
    await eventually('the answer', () => botTexts(client.items).includes('From 9 to 5.'));
    await send(client, 'quantum chromodynamics');
    await eventually('no answer', () => botTexts(client.items).includes('No idea.'));
    const faqRows = (await logs(server.store, 'fuzzyQuestionAnswerLog')).filter((r) => r.userId === session.userId);
    expect(faqRows.map((r) => r.data)).toEqual([
      expect.objectContaining({
        intent: 'hours',
        text: 'when are you open',
        stepId: 'q',
        dialogId: 'faq',
        matched: true,
        score: expect.any(Number),
        otherClassifications: expect.any(Array),
      }),
      expect.objectContaining({ text: 'quantum chromodynamics', matched: false }),
    ]);
    const [answeredRow, unansweredRow] = faqRows.map((r) => r.data as { score: number });
    expect(answeredRow?.score).toBeGreaterThanOrEqual(0.6);
    expect(unansweredRow?.score).toBeLessThan(0.6);
    expect(lastBot(client.items)).toMatchObject({ type: 'text', text: 'Ask me.' });
    client.disconnect();
  });
});

describe('missing template variables', () => {
  it('when a template names a missing variable on many turns, then it renders empty and is logged once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'missing-var-'));
    const server = await startTestServer({
      BOT_DEFINITION: await writeBot(dir, {
        settings: { id: 'm', name: 'M', startDialog: 'main' },
        dialogs: [
          {
            id: 'main',
            steps: [
              { id: 'ask', type: 'input', prompt: 'Hi {{nobody}}!', saveTo: { variable: 'x' } },
              { id: 'again', type: 'goto', dialog: 'main' },
            ],
          },
        ],
      }),
      WEBCHAT_RATE_LIMIT: '10000',
    });
    try {
      const client = connectClient(server.url);
      await eventually('the prompt', () => botTexts(client.items).includes('Hi !'));
      for (let i = 0; i < 3; i++) await send(client, `answer ${i}`);
      await eventually('three more prompts', () => botTexts(client.items).filter((t) => t === 'Hi !').length === 4);
      expect(server.logs.filter((l) => l.code === 'missing_variable')).toEqual([
        expect.objectContaining({ name: 'nobody' }),
      ]);
      client.disconnect();
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
