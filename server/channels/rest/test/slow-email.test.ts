import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestServer, storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { restClient, texts } from './rest-client.ts';

const KEY = 'mail-channel-key-0123456789abcdef';

/** A bot whose dialog stores its messages, then sends an email (after the commit, as every email goes). */
const MAIL_BOT = {
  settings: { id: 'mail-bot', name: 'REST channel mail bot', startDialog: 'home' },
  dialogs: [
    { id: 'home', steps: [{ id: 'ask', type: 'input', prompt: 'Say something.' }] },
    {
      id: 'mail',
      steps: [
        { id: 'say', type: 'message', text: 'Sending.' },
        { id: 'send', type: 'email', to: 'ops@example.com', subject: 'A request', body: 'Please call back.' },
        { id: 'done', type: 'message', text: 'Sent.' },
        { id: 'end', type: 'end' },
      ],
    },
  ],
};

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`REST channel answer while a turn's email is slow (${leg.name})`, () => {
    let smtp: SMTPServer;
    const mails: string[] = [];
    /** The mail server takes each message only once the test lets it. */
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let server: TestServer;
    let dir: string;

    beforeAll(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, _session, callback) {
          let raw = '';
          stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
          stream.on('end', () => void gate.then(() => (mails.push(raw), callback())));
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
      const { port } = smtp.server.address() as AddressInfo;
      dir = await mkdtemp(path.join(tmpdir(), 'rest-mail-'));
      const file = path.join(dir, 'bot.json');
      await writeFile(file, JSON.stringify(MAIL_BOT));
      server = await startTestServer({
        ...leg.env(),
        BOT_DEFINITION: file,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SMTP_FROM: 'bot@example.com',
        REST_CHANNEL_ANSWER_WAIT: '1s',
        TURN_DEADLINE: '2s',
        REST_CHANNELS: JSON.stringify([{ name: 'mail', key: KEY }]),
      });
    });
    afterAll(async () => {
      release();
      await server?.stop();
      await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('when the message is stored but the turn still waits on its email past the answer wait, then the answer comes at the wait with the seq and complete:false, and the email goes out once', async () => {
      const client = restClient(server.url, 'mail', KEY);
      const answer = await client.post('mia', { type: 'dialog', clientId: 'm1', label: 'Mail us', dialogId: 'mail' });
      expect(answer.status).toBe(200);
      // Stored before the email: the seq is known, and the turn deadline (shorter than the mail's wait here) no longer binds it.
      expect(answer.body).toMatchObject({ seq: expect.any(Number), duplicate: false, complete: false });
      expect(texts(answer.body.messages)).toEqual(['Say something.', 'Sending.', 'Sent.']);
      expect(mails).toEqual([]);

      release();
      await eventually('the email', () => mails.length > 0 || undefined);
      const stored = await client.missed('mia', 0);
      expect(stored.messages.filter((item) => item.clientId === 'm1').map((item) => item.seq)).toEqual([
        answer.body.seq,
      ]);
      expect(mails).toHaveLength(1);
    });
  });
}
