import express, { Router } from 'express';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from '../../api/errors.ts';
import { createLogger } from '../../logger.ts';
import { serveRoute } from './studio-route.ts';

/** A router serving two routes of the map, one answering the shape its schema says and one that drifted. */
describe('an answer of a studio route', () => {
  let server: Server;
  let url: string;
  const logged: string[] = [];

  beforeAll(async () => {
    const router = Router();
    serveRoute(router, 'signInOptions', {}, () => ({ password: true, singleSignOn: null, signedIn: false }));
    // A field renamed on the server and not in the map: what the check is there to catch.
    serveRoute(
      router,
      'listTokens',
      {},
      () => [{ id: 't1', name: 'ci', createdAt: new Date(0).toISOString() }] as never,
    );
    const app = express();
    app.use(router);
    const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (logged.push(chunk.toString()), done()) });
    app.use(errorHandler(createLogger('error', sink)));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('when the answer has the shape of the map, then it is sent as it is', async () => {
    const res = await fetch(`${url}/sign-in-options`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ password: true, singleSignOn: null, signedIn: false });
  });

  it('when the answer drifted from the map (in test), then it is not sent: 500, and the log names the route and the field', async () => {
    const res = await fetch(`${url}/tokens`);
    expect(res.status).toBe(500);
    expect(logged.join('')).toMatch(/listTokens answered a shape its schema does not allow, at 0\.expiresAt/);
  });
});
