import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
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

  it('when the vendor answers in chunks, then the whole body comes back, and the connection is kept for the next call', async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ok":true,');
        setImmediate(() => res.end('"result":{"message_id":7}}'));
      });
    });
    let connections = 0;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sendMessage`;
    for (let call = 0; call < 2; call++) {
      const answer = await callVendor(callee, url, { headers: {}, body: '{}' });
      expect(answer).toMatchObject({
        response: { status: 200, ok: true },
        body: { ok: true, result: { message_id: 7 } },
      });
    }
    expect(connections).toBe(1);
  });

  it('when the vendor closed a kept-alive connection, then the next call goes on a new one and is answered', async () => {
    const fake = await vendor({ status: 200, body: '{"ok":true}' });
    await callVendor(callee, fake.url, { headers: {}, body: '{}' });
    server!.closeIdleConnections();
    const answer = await callVendor(callee, fake.url, { headers: {}, body: '{}' });
    expect(answer.body).toEqual({ ok: true });
    expect(fake.seen).toHaveLength(2);
    expect(fake.connections()).toBe(2);
  });
});

describe('a call to a vendor that speaks HTTP/1.1 its own way', () => {
  let raw: TcpServer | undefined;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => raw?.close(resolve) ?? resolve(undefined));
    raw = undefined;
  });

  /** A vendor writing `answer` as it is, in pieces, to each request; counts the requests it read. */
  async function rawVendor(answer: readonly string[]) {
    const requests: string[] = [];
    raw = createTcpServer((socket: Socket) => {
      sockets.add(socket);
      socket.on('data', (chunk: Buffer) => {
        requests.push(chunk.toString('latin1'));
        for (const piece of answer) socket.write(piece);
        if (answer.at(-1) === '') socket.end();
      });
    });
    await new Promise<void>((resolve) => raw!.listen(0, '127.0.0.1', resolve));
    return { url: `http://user:p%40ss@127.0.0.1:${(raw.address() as AddressInfo).port}/v1/send?x=1`, requests };
  }

  it('when the answer ends with the connection, then its body is what came before the end', async () => {
    const fake = await rawVendor([
      'HTTP/1.1 503 Service Unavailable\r\nRetry-After: 3\r\n',
      '\r\n{"error":"busy"}',
      '',
    ]);
    const answer = await callVendor(callee, fake.url, { headers: { 'content-type': 'application/json' }, body: 'é' });
    expect(answer).toMatchObject({ response: { status: 503, ok: false }, body: { error: 'busy' } });
    expect(retryAfterMs(answer.response)).toBe(3000);
    expect(fake.requests[0]).toMatch(/^POST \/v1\/send\?x=1 HTTP\/1\.1\r\n/);
    expect(fake.requests[0]).toContain(`authorization: Basic ${Buffer.from('user:p@ss').toString('base64')}\r\n`);
    expect(fake.requests[0]).toContain('content-length: 2\r\n');
  });

  it('when an interim answer and a chunked one split anywhere arrive, then the final answer comes back whole', async () => {
    const fake = await rawVendor([
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a\r\nset-cookie: b\r\n\r\n',
      '5\r\n{"ok"',
      '\r',
      '\n6;ext=1\r\n:true}\r\n0\r\n\r\n',
    ]);
    const answer = await callVendor(callee, fake.url, { headers: {}, body: '{}' });
    expect(answer).toMatchObject({ response: { status: 200, ok: true }, body: { ok: true } });
    expect(answer.response.headers.get('Set-Cookie')).toBe('a, b');
  });

  it.each([
    ['is not HTTP at all', ['SSH-2.0-OpenSSH_9.6\r\n\r\n']],
    ['has a head that never ends', ['HTTP/1.1 200 OK\r\nx-pad: ' + 'a'.repeat(70_000)]],
    [
      'gives a chunk size that is no number',
      ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ],
    ['gives a length that is no number', ['HTTP/1.1 200 OK\r\ncontent-length: 2, 2\r\n\r\n{}']],
    ['ends before its head is whole', ['HTTP/1.1 200 OK\r\ncontent-le', '']],
  ])('when the answer %s, then the call is a passing failure and the process goes on', async (_, answer) => {
    const fake = await rawVendor(answer);
    const failure = await callVendor(callee, fake.url, { headers: {}, body: '{}' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SendFailure);
    expect(failure).toMatchObject({ kind: 'transient', vendorCode: 'network' });
    expect(String((failure as Error).message)).not.toContain('p@ss');
  });

  it('when the answer is larger than an answer may be, then its status comes back and its body is left out', async () => {
    const big = JSON.stringify({ ok: true, pad: 'a'.repeat(1024 * 1024 + 10) });
    const fake = await rawVendor([`HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(big)}\r\n\r\n`, big]);
    const answer = await callVendor(callee, fake.url, { headers: {}, body: '{}' });
    expect(answer).toEqual({ response: expect.objectContaining({ status: 200, ok: true }), body: {} });
  });

  it('when a header would carry a line break, then nothing is sent and the call fails', async () => {
    const fake = await rawVendor(['HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}']);
    const failure = await callVendor(callee, fake.url, { headers: { 'x-a': 'b\r\nx-c: d' }, body: '{}' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ kind: 'transient', vendorCode: 'network' });
    expect(fake.requests).toEqual([]);
  });
});
