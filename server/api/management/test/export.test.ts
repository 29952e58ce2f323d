import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { KEY, keyed, seedLogs, seedUser, startManagementServer } from './helpers.ts';

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0); // 2026-11-21T09:00:00Z
const sec = (ms: number) => Math.floor(ms / 1000);

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`exports (${leg.name})`, () => {
    let server: TestServer;
    const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, keyed(init));

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
      await seedUser(server.store, 'u-late', T0 + 3_600_000, { email: 'late@example.com', name: 'Late', score: 3 });
      await seedUser(server.store, 'u-early', T0, { email: 'early@example.com', name: '=cmd()', tags: [] });
      await seedUser(server.store, 'u-mid', T0 + 1_800_123, {
        email: '',
        name: 'Mid, "quoted"',
        score: 42,
        tags: ['a'],
      });
      await server.store.ensureUser({
        userId: 'u-silent',
        channelId: 'webchat',
        userData: { email: 'silent@example.com' },
        now: T0,
      });
      await seedLogs(server.store, 'nlpLog', [
        {
          userId: 'u-early',
          timestamp: T0 + 10,
          data: {
            dialogId: 'd',
            stepId: 's',
            stepType: 'input',
            query: 'first',
            modelId: null,
            intent: null,
            result: null,
            processed: false,
          },
        },
        {
          userId: 'u-early',
          timestamp: T0 + 5,
          data: { dialogId: 'd', stepId: 's', stepType: 'input', query: 'zeroth Café', processed: false },
        },
        { userId: 'u-late', timestamp: T0 + 86_400_000, data: { query: 'next day', processed: false } },
      ]);
      await seedLogs(server.store, 'integrationLog', [
        {
          userId: 'u-early',
          timestamp: T0,
          data: {
            url: 'https://api.example.com/x',
            method: 'GET',
            requestHeaders: { Authorization: 'Bearer s3cret', Accept: 'json' },
            requestBody: null,
            responseStatus: 200,
            responseBody: { ok: true },
            duration: 12,
          },
        },
      ]);
      await seedLogs(server.store, 'userDataSnapshot', [
        { userId: 'u-early', timestamp: T0 + 1, data: { email: 'old@example.com', name: 'Old' } },
      ]);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when userData is exported without filters, then every known user (those who never wrote too, at their creation) comes sorted by last message with exactly the declared fields', async () => {
      const res = await get('/api/management/export/userData');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-next-cursor')).toBeNull();
      const body = (await res.json()) as Record<string, unknown>[];
      expect(body.map((r) => r.userId)).toEqual(['u-early', 'u-silent', 'u-mid', 'u-late']);
      expect(body[1]).toEqual({
        userId: 'u-silent',
        timestamp: '2026-11-21T09:00:00.000Z',
        email: 'silent@example.com',
        name: null,
        score: null,
        tags: null,
      });
      expect(body[0]).toEqual({
        userId: 'u-early',
        timestamp: '2026-11-21T09:00:00.000Z',
        email: 'early@example.com',
        name: '=cmd()',
        score: null,
        tags: [],
      });
      expect(Object.keys(body[2]!)).toEqual(['userId', 'timestamp', 'email', 'name', 'score', 'tags']);
      expect(body[2]!.timestamp).toBe('2026-11-21T09:30:00.123Z');
    });

    it('when the key comes in the code query parameter, then it is accepted too', async () => {
      const res = await fetch(`${server.url}/api/management/export/userData?code=${KEY}`);
      expect(res.status).toBe(200);
    });

    it('when userData is filtered by time, then the range is half-open on the last message (creation for those who never wrote)', async () => {
      const res = await get(
        `/api/management/export/userData?fromTimestamp=${sec(T0) + 1}&toTimestamp=${sec(T0) + 3600}`,
      );
      expect(((await res.json()) as { userId: string }[]).map((r) => r.userId)).toEqual(['u-mid']);
      const until = await get(`/api/management/export/userData?fromTimestamp=${sec(T0)}&toTimestamp=${sec(T0) + 3600}`);
      expect(((await until.json()) as { userId: string }[]).map((r) => r.userId)).toEqual([
        'u-early',
        'u-silent',
        'u-mid',
      ]);
    });

    it('when where<FieldName> is given in any case, then values compare as strings', async () => {
      const res = await get('/api/management/export/userData?whereScore=42');
      expect(((await res.json()) as { userId: string }[]).map((r) => r.userId)).toEqual(['u-mid']);
      const lower = await get('/api/management/export/userData?whereemail=late%40example.com');
      expect(((await lower.json()) as { userId: string }[]).map((r) => r.userId)).toEqual(['u-late']);
    });

    it('when notEmpty lists fields, then missing, null, "" and [] exclude a user', async () => {
      const res = await get('/api/management/export/userData?notEmpty=email,tags');
      expect(((await res.json()) as { userId: string }[]).map((r) => r.userId)).toEqual([]);
      const email = await get('/api/management/export/userData?notEmpty=email');
      expect(((await email.json()) as { userId: string }[]).map((r) => r.userId)).toEqual([
        'u-early',
        'u-silent',
        'u-late',
      ]);
    });

    it('when limit is given, then pages follow X-Next-Cursor and Link until the last page has none', async () => {
      const seen: string[] = [];
      let path: string | null = '/api/management/export/userData?limit=2';
      let pages = 0;
      while (path) {
        const res = await get(path);
        expect(res.status).toBe(200);
        seen.push(...((await res.json()) as { userId: string }[]).map((r) => r.userId));
        const link = res.headers.get('link');
        const cursor = res.headers.get('x-next-cursor');
        expect(link === null).toBe(cursor === null);
        if (link) expect(link).not.toContain(KEY);
        path = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
        pages++;
      }
      expect(pages).toBe(2);
      expect(seen).toEqual(['u-early', 'u-silent', 'u-mid', 'u-late']);
    });

    it('when a cursor of one export is used on another, then 400 invalid_parameter', async () => {
      const first = await get('/api/management/export/userData?limit=1');
      const cursor = first.headers.get('x-next-cursor')!;
      const res = await get(`/api/management/export/nlpLog?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_parameter');
    });

    it('when NDJSON is accepted, then one record comes per line', async () => {
      const res = await get('/api/management/export/userData', { headers: { accept: 'application/x-ndjson' } });
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (await res.text()).trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as { userId: string }).userId)).toEqual([
        'u-early',
        'u-silent',
        'u-mid',
        'u-late',
      ]);
    });

    it('when format=csv, then RFC 4180 CSV with a header row, quoting and formula guard', async () => {
      const res = await get('/api/management/export/userData?format=csv&bom=false');
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const text = await res.text();
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('userId,timestamp,email,name,score,tags');
      expect(lines[1]).toBe("u-early,2026-11-21T09:00:00.000Z,early@example.com,'=cmd(),,[]");
      expect(lines[3]).toBe('u-mid,2026-11-21T09:30:00.123Z,,"Mid, ""quoted""",42,"[""a""]"');
    });

    it('when format=csv is asked without bom, then the bytes are the UTF-8 byte order mark, the header and the rows, exactly', async () => {
      const res = await get(`/api/management/export/userData?format=csv&toTimestamp=${sec(T0) + 1}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      const expected = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          "userId,timestamp,email,name,score,tags\r\nu-early,2026-11-21T09:00:00.000Z,early@example.com,'=cmd(),,[]\r\nu-silent,2026-11-21T09:00:00.000Z,silent@example.com,,,\r\n",
          'utf8',
        ),
      ]);
      expect(bytes.equals(expected)).toBe(true);
      // Without the mark the file starts with the header's first byte.
      const plain = Buffer.from(
        await (
          await get(`/api/management/export/userData?format=csv&bom=false&toTimestamp=${sec(T0) + 1}`)
        ).arrayBuffer(),
      );
      expect(plain.equals(expected.subarray(3))).toBe(true);
    });

    it('when a CSV cell holds non-ASCII text, then it is UTF-8 after the mark, as Excel reads it', async () => {
      const res = await get(`/api/management/export/nlpLog?format=csv&toTimestamp=${sec(T0) + 1}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toStrictEqual([0xef, 0xbb, 0xbf]);
      expect(bytes.toString('utf8')).toContain('Café');
    });

    it('when csvFormulaGuard=false, then cells starting with = + - @ are written unchanged', async () => {
      const res = await get(
        `/api/management/export/userData?format=csv&bom=false&csvFormulaGuard=false&toTimestamp=${sec(T0) + 1}`,
      );
      expect((await res.text()).split('\r\n')[1]).toBe('u-early,2026-11-21T09:00:00.000Z,early@example.com,=cmd(),,[]');
    });

    it('when bom or csvFormulaGuard is given without format=csv, or with a value other than true/false, then 400 naming it', async () => {
      for (const query of ['bom=true', 'csvFormulaGuard=false', 'format=csv&bom=yes']) {
        const res = await get(`/api/management/export/userData?${query}`);
        expect(res.status).toBe(400);
        const body = (await res.json()) as { error: { code: string; details: { parameter: string } } };
        expect(body.error.code).toBe('invalid_parameter');
        expect(query).toContain(body.error.details.parameter);
      }
    });

    it('when a log is exported, then records are sorted by timestamp with exactly the spec fields', async () => {
      const res = await get(`/api/management/export/nlpLog?toTimestamp=${sec(T0) + 3600}`);
      const body = (await res.json()) as Record<string, unknown>[];
      expect(body.map((r) => r.query)).toEqual(['zeroth Café', 'first']);
      expect(Object.keys(body[0]!)).toEqual([
        'userId',
        'timestamp',
        'dialogId',
        'stepId',
        'stepType',
        'query',
        'modelId',
        'intent',
        'result',
        'processed',
      ]);
      expect(body[0]!.modelId).toBeNull();
      expect(body[0]!.timestamp).toBe('2026-11-21T09:00:00.005Z');
    });

    it('when the integration log holds a secret header, then the export shows it redacted', async () => {
      const res = await get('/api/management/export/integrationLog');
      const text = await res.text();
      expect(text).not.toContain('s3cret');
      const [record] = JSON.parse(text) as Record<string, unknown>[];
      expect(record).toMatchObject({
        requestHeaders: { Authorization: '[redacted]', Accept: 'json' },
        duration: 12,
        responseStatus: 200,
      });
    });

    it('when userDataSnapshot is exported with a where filter, then it takes the userData parameters', async () => {
      const res = await get('/api/management/export/userDataSnapshot?whereName=Old&notEmpty=email');
      const body = (await res.json()) as Record<string, unknown>[];
      expect(body).toEqual([
        {
          userId: 'u-early',
          timestamp: '2026-11-21T09:00:00.001Z',
          email: 'old@example.com',
          name: 'Old',
          score: null,
          tags: null,
        },
      ]);
    });

    it('when an export has no records, then an empty JSON array', async () => {
      const res = await get('/api/management/export/urlTracker');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });
  });
}
