import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SendFailure } from '../connector.ts';
import { callVendor, retryAfterMs } from '../vendor-call.ts';

interface Seen {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A vendor on loopback answering `answer`; counts the connections it was called on. */
async function vendor(answer: { status: number; body: string; headers?: Record<string, string> }) {
  const seen: Seen[] = [];
  let connections = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot-secret-token/sendMessage`;
  return { url, seen, connections: () => connections };
}

const callee = {
  name: 'Fake sendMessage',
  endpoint: 'sendMessage',
  redact: (text: string) => text.split('secret-token').join('<token>'),
};

describe('a call to a vendor', () => {
  it('when the vendor answers, then its status, headers and JSON body come back, and the next call reuses the connection', async () => {
    const fake = await vendor({ status: 429, body: '{"ok":false,"error_code":429}', headers: { 'retry-after': '7' } });
    const body = JSON.stringify({ chat_id: 1, text: 'Grüße' });
    const first = await callVendor<{ ok: boolean; error_code: number }>(callee, fake.url, {
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(first.response).toMatchObject({ status: 429, ok: false });
    expect(first.body).toEqual({ ok: false, error_code: 429 });
    expect(retryAfterMs(first.response)).toBe(7000);
    await callVendor(callee, fake.url, { headers: { 'content-type': 'application/json' }, body });
    expect(fake.seen[0]).toMatchObject({ body, headers: { 'content-length': String(Buffer.byteLength(body)) } });
    expect(fake.connections()).toBe(1);
  });

  it('when the body is a form, then it is sent URL-encoded; a body that is not JSON comes back empty', async () => {
    const fake = await vendor({ status: 502, body: '<html>Bad Gateway</html>' });
    const answer = await callVendor(callee, fake.url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ To: '+15550001', Body: 'a b&c' }),
    });
    expect(fake.seen[0]!.body).toBe('To=%2B15550001&Body=a+b%26c');
    expect(answer).toMatchObject({ response: { status: 502, ok: false }, body: {} });
  });

  it('when nothing listens, then the call is a passing failure that names the cause without the credentials', async () => {
    const fake = await vendor({ status: 200, body: '{}' });
    await new Promise((resolve) => server!.close(resolve));
    const failure = await callVendor(callee, fake.url, { headers: {}, body: '{}' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SendFailure);
    expect(failure).toMatchObject({ kind: 'transient', vendorCode: 'network', endpoint: 'sendMessage' });
    expect((failure as Error).message).toBe('Fake sendMessage could not be reached (ECONNREFUSED)');
  });
});
