import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
  readonly subject: string;
  readonly body: string;
}

/** A real SMTP server on loopback (the smtp-server package) that keeps what it receives. */
export async function startSmtpServer(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
        const subject = /^Subject: (.*)$/m.exec(head)?.[1] ?? '';
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          body: rest.join('\n\n').replace(/\r\n/g, '\n').replace(/=\n/g, ''),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedSms {
  readonly authorization: string | undefined;
  readonly form: Record<string, string>;
}

/** A Twilio-style SMS endpoint on loopback: records form posts; answers `status` (201 by default). */
export async function startSmsProvider(): Promise<{
  url: string;
  messages: ReceivedSms[];
  status: { code: number };
  close(): Promise<void>;
}> {
  const messages: ReceivedSms[] = [];
  const status = { code: 201 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      messages.push({ authorization: req.headers.authorization, form: Object.fromEntries(new URLSearchParams(body)) });
      res
        .writeHead(status.code, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sid: `SM${messages.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/2010-04-01/Accounts/AC123/Messages.json`,
    messages,
    status,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
