import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, json, startUpstream, type Upstream } from '../test/upstream.ts';
import { isInternalAddress } from './destination-policy.ts';
import { IntegrationError } from './integration-error.ts';
import { SafeHttpClient } from './safe-http-client.ts';

const kindOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(IntegrationError);
    return (error as IntegrationError).kind;
  }
};

describe('SafeHttpClient', () => {
  let upstream: Upstream;
  let other: Upstream;
  const client = new SafeHttpClient({ allowedHosts: ['127.0.0.1', 'localhost'] });

  beforeAll(async () => {
    upstream = await startUpstream();
    other = await startUpstream((req, res) => json(res, 200, { authorization: req.headers.authorization ?? null }));
  });
  afterAll(async () => {
    client.close();
    await upstream.close();
    await other.close();
  });

  it('when the server answers, then status, lower-case headers and body come back', async () => {
    upstream.handle((_req, res) => json(res, 201, { id: 7 }, { 'X-Thing': 'a' }));
    const response = await client.send({ url: `${upstream.url}/users`, method: 'post', body: '{}' });
    expect(response.status).toBe(201);
    expect(response.headers['x-thing']).toBe('a');
    expect(JSON.parse(response.body.toString())).toEqual({ id: 7 });
    expect(upstream.seen.at(-1)?.method).toBe('POST');
  });

  it('when the server is slower than the timeout, then the call fails with timeout', async () => {
    upstream.handle((_req, res) => void setTimeout(() => json(res, 200, {}), 1000));
    expect(await kindOf(client.send({ url: upstream.url, method: 'GET', timeoutMs: 100 }))).toBe('timeout');
  });

  it('when nothing listens on the port, then the call fails with network', async () => {
    expect(await kindOf(client.send({ url: `http://127.0.0.1:${await closedPort()}/`, method: 'GET' }))).toBe(
      'network',
    );
  });

  it('when the body is over the cap, then the call fails with too_large, declared or streamed', async () => {
    upstream.handle((_req, res) => json(res, 200, { data: 'x'.repeat(5000) }));
    expect(await kindOf(client.send({ url: upstream.url, method: 'GET', maxBytes: 1000 }))).toBe('too_large');
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no content-length to trust
      res.write('y'.repeat(800));
      res.end('y'.repeat(800));
    });
    expect(await kindOf(client.send({ url: upstream.url, method: 'GET', maxBytes: 1000 }))).toBe('too_large');
    expect(await kindOf(client.send({ url: upstream.url, method: 'GET', maxBytes: 2000 }))).toBe('ok');
  });

  it('when redirects go on past the limit, then the call fails with redirect; within it, the target answers', async () => {
    upstream.handle((req, res) => {
      const n = Number(new URL(req.url, 'http://x').searchParams.get('n') ?? 0);
      if (n < 5) {
        res.writeHead(302, { location: `/hop?n=${n + 1}` });
        res.end();
      } else json(res, 200, { arrived: n });
    });
    expect(await kindOf(client.send({ url: `${upstream.url}/hop?n=0`, method: 'GET', maxRedirects: 3 }))).toBe(
      'redirect',
    );
    const response = await client.send({ url: `${upstream.url}/hop?n=0`, method: 'GET', maxRedirects: 5 });
    expect(JSON.parse(response.body.toString())).toEqual({ arrived: 5 });
  });

  it('when a redirect leads to another origin, then credentials are not carried there', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(307, { location: `http://localhost:${other.port}/echo` });
      res.end();
    });
    const response = await client.send({
      url: upstream.url,
      method: 'GET',
      headers: { Authorization: 'Bearer secret-token-1' },
    });
    expect(JSON.parse(response.body.toString())).toEqual({ authorization: null });
  });

  it('when a redirect points to a host that is not allowed, then the hop is refused', async () => {
    const strict = new SafeHttpClient({ allowedHosts: ['127.0.0.1'] });
    upstream.handle((_req, res) => {
      res.writeHead(302, { location: `http://localhost:${other.port}/` });
      res.end();
    });
    expect(await kindOf(strict.send({ url: upstream.url, method: 'GET' }))).toBe('forbidden_destination');
    strict.close();
  });

  it('when no allowlist is set, then loopback is refused, by IP and by a name that resolves to it', async () => {
    const open = new SafeHttpClient();
    upstream.handle((_req, res) => json(res, 200, {}));
    const before = upstream.seen.length;
    expect(await kindOf(open.send({ url: upstream.url, method: 'GET' }))).toBe('forbidden_destination');
    expect(await kindOf(open.send({ url: `http://localhost:${upstream.port}/`, method: 'GET' }))).toBe(
      'forbidden_destination',
    );
    expect(await kindOf(open.send({ url: `http://[::1]:${upstream.port}/`, method: 'GET' }))).toBe(
      'forbidden_destination',
    );
    expect(await kindOf(open.send({ url: 'http://169.254.169.254/latest/meta-data', method: 'GET' }))).toBe(
      'forbidden_destination',
    );
    expect(upstream.seen.length).toBe(before);
    open.close();
  });

  it('when an allowlist is set, then only its hosts are called', async () => {
    const only = new SafeHttpClient({ allowedHosts: ['localhost'] });
    expect(await kindOf(only.send({ url: upstream.url, method: 'GET' }))).toBe('forbidden_destination');
    expect(await kindOf(only.send({ url: `http://localhost:${upstream.port}/`, method: 'GET' }))).toBe('ok');
    only.close();
  });

  it('when a scheme other than http(s) is asked for, then nothing is called', async () => {
    expect(await kindOf(client.send({ url: 'file:///etc/passwd', method: 'GET' }))).toBe('network');
  });

  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700:4700::1111', false],
    ['::ffff:8.8.8.8', false],
  ])('when the address is %s, then internal is %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });
});
