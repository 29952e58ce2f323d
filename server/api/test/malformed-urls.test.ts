import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_FUNCTION_KEY, startTestServer, type TestServer } from '../../test/start-test-server.ts';

const BOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'bot.json');

describe('URLs that do not percent-decode', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ BOT_DEFINITION: BOT });
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const target of [
    '/r/%E0%A4%A',
    '/api/management/datasets/%E0%A4%A',
    '/api/management/export/%E0%A4%A',
    '/api/trigger/%E0%A4%A/x?userId=u',
  ]) {
    it(`when ${target} is asked for, then 400 invalid_parameter and no error is logged`, async () => {
      const res = await fetch(`${server.url}${target}`, {
        method: target.includes('trigger') ? 'POST' : 'GET',
        headers: { 'x-functions-key': TEST_FUNCTION_KEY },
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_parameter');
      expect(body.error.message).toMatch(/percent-encoding/);
      expect(server.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
    });
  }
});
