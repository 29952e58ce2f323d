import { afterEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/start-test-server.ts';
import { BOT_ID, KEY, startManagementServer } from '../management/test/helpers.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** One export (Express) and one trigger (node:http) as a proxy would send them for a client, or as a client itself does. */
async function calls(forwardedFor: string | undefined): Promise<number[]> {
  const headers: Record<string, string> = {
    'x-functions-key': KEY,
    ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
  };
  const exported = await fetch(`${server?.url ?? ''}/api/management/export/urlTracker`, { headers });
  await exported.arrayBuffer();
  const triggered = await fetch(`${server?.url ?? ''}/api/trigger/${BOT_ID}/operationSucceeded?userId=u`, {
    method: 'POST',
    headers,
  });
  await triggered.arrayBuffer();
  return [exported.status, triggered.status];
}

const loggedIps = () => (server?.logs ?? []).filter((l) => l.event === 'http_request').map((l) => l.ip);

describe('TRUST_PROXY', () => {
  it('when TRUST_PROXY=1, then each client the proxy names has its own rate limit over exports and triggers alike, an address the client wrote itself changes nothing, and the log shows the client', async () => {
    server = await startManagementServer({ TRUST_PROXY: '1', MANAGEMENT_RATE_LIMIT: '2' });
    expect(await calls('198.51.100.4')).toEqual([200, 202]);
    // The same client, claiming another address to the left of what the proxy appended.
    expect(await calls('203.0.113.66, 198.51.100.4')).toEqual([429, 429]);
    expect(await calls('198.51.100.5')).toEqual([200, 202]);
    expect(loggedIps()).toEqual([
      '198.51.100.4',
      '198.51.100.4',
      '198.51.100.4',
      '198.51.100.4',
      '198.51.100.5',
      '198.51.100.5',
    ]);
  });

  it('when TRUST_PROXY=false, then X-Forwarded-For is ignored: every request from this peer shares one count', async () => {
    server = await startManagementServer({ TRUST_PROXY: 'false', MANAGEMENT_RATE_LIMIT: '2' });
    expect(await calls('198.51.100.4')).toEqual([200, 202]);
    expect(await calls('198.51.100.5')).toEqual([429, 429]);
    expect(new Set(loggedIps())).toEqual(new Set(['127.0.0.1']));
  });
});
