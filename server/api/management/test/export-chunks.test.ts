import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewLogEntry } from '../../../ports/store.ts';
import { storeLegs, type TestServer } from '../../../test/start-test-server.ts';
import { keyed, seedLogs, startManagementServer } from './helpers.ts';

// An export is written in chunks of about 64 Ki UTF-16 units, each encoded into a shared buffer: these
// records (multi-byte text, one far larger than a chunk) make many chunks and fill several buffers,
// and the bytes must be the records exactly, in every format.
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const FIELDS = ['dialogId', 'stepId', 'stepType', 'query', 'modelId', 'intent', 'result', 'processed'] as const;
const ROWS = 1500;
const HUGE_AT = 700;

function entry(i: number): NewLogEntry {
  const query =
    i === HUGE_AT ? `huge ${'Zoë 😀 日本 "q" '.repeat(6000)}` : `question ${i}: Zoë 😀 日本 ${'ü'.repeat(i % 90)}`;
  return {
    userId: `user-${i}`,
    timestamp: T0 + i,
    data: {
      dialogId: 'd',
      stepId: 's',
      stepType: 'input',
      query,
      modelId: null,
      intent: i % 2 ? 'greet' : null,
      result: null,
      processed: i % 3 === 0,
    },
  };
}

/** The record as the spec writes it: userId, timestamp, then the log's fields in order. */
function record(i: number): Record<string, unknown> {
  const { userId, timestamp, data } = entry(i);
  const out: Record<string, unknown> = { userId, timestamp: new Date(timestamp).toISOString() };
  for (const field of FIELDS) out[field] = data[field];
  return out;
}

const csvCell = (value: unknown) => {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`exports across many write buffers (${leg.name})`, () => {
    let server: TestServer;
    const records = Array.from({ length: ROWS }, (_, i) => record(i));
    const text = async (path: string) => {
      const res = await fetch(`${server.url}/api/management/export/${path}`, keyed());
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer()).toString('utf8');
    };

    beforeAll(async () => {
      server = await startManagementServer(leg.env());
      await seedLogs(
        server.store,
        'nlpLog',
        Array.from({ length: ROWS }, (_, i) => entry(i)),
      );
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('when an export of multi-byte records, one larger than a write buffer, is read as JSON, NDJSON and CSV, then its bytes are exactly the records', async () => {
      const lines = records.map((r) => JSON.stringify(r));
      expect(Buffer.byteLength(lines[HUGE_AT]!)).toBeGreaterThan(64 * 1024);
      expect(await text('nlpLog')).toBe(`[\n${lines.join(',\n')}\n]\n`);
      expect(await text('nlpLog?format=ndjson')).toBe(lines.map((line) => `${line}\n`).join(''));
      const csv = records
        .map((r) => `${['userId', 'timestamp', ...FIELDS].map((field) => csvCell(r[field])).join(',')}\r\n`)
        .join('');
      expect(await text('nlpLog?format=csv&bom=false')).toBe(`userId,timestamp,${FIELDS.join(',')}\r\n${csv}`);
    });
  });
}
