/**
 * The misses at their bound: an NLP log and a FAQ log with more rows than are read per request
 * (ROW_CAP), many distinct inputs, on SQLite; the CPU time and memory of one misses report
 * (reading up to the cap, grouping up to MAX_DISTINCT inputs, suggestions, the quality report).
 * Figures only, never asserted. `MISSES_ROWS` sets the rows per log (default 30,000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { missesReport, ROW_CAP } from '../server/studio-server/insights/misses.ts';
import { teachableOf } from '../server/studio-server/insights/teachable.ts';
import { missesBot } from '../server/studio-server/test/misses-script.ts';
import { openSqliteStore } from '../server/stores/sqlite/sqlite-store.ts';

const rows = Number(process.env.MISSES_ROWS ?? 30_000);
const words = [
  'parcel',
  'order',
  'refund',
  'money',
  'shop',
  'open',
  'sunday',
  'delivery',
  'address',
  'card',
  'pay',
  'invoice',
  'account',
  'password',
  'login',
  'cancel',
  'return',
  'size',
  'colour',
  'price',
];
const dir = await mkdtemp(path.join(tmpdir(), 'bench-misses-'));
const store = openSqliteStore({ file: path.join(dir, 'bench.db') });
try {
  const at = Date.UTC(2026, 0, 10);
  for (let start = 0; start < rows; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, rows - start) }, (_, k) => {
      const i = start + k;
      // About 3,000 distinct inputs, a few of them frequent; most with words of their own, so
      // grouping meets the worst case: nearly every input of the MAX_DISTINCT leads a group.
      const n = i % 7 === 0 ? i % 20 : i % 3000;
      return {
        userId: `u${i % 5000}`,
        timestamp: at + i,
        text: n < 20 ? `${words[n]} ${words[(n * 7) % 20]}` : `${words[n % 20]} kq${n}x vw${n * 7}z`,
      };
    });
    await store.appendLogs(
      'nlpLog',
      batch.map((b) => ({ userId: b.userId, timestamp: b.timestamp, data: { query: b.text, processed: false } })),
    );
    await store.appendLogs(
      'fuzzyQuestionAnswerLog',
      batch.map((b) => ({ userId: b.userId, timestamp: b.timestamp, data: { text: b.text, matched: false } })),
    );
  }
  const definition = teachableOf(missesBot());
  for (let run = 0; run < 3; run++) {
    const heap = process.memoryUsage().heapUsed;
    const cpu = process.cpuUsage();
    const report = await missesReport({ store }, { fromMs: at, toMs: at + rows + 1 }, definition);
    const used = process.cpuUsage(cpu);
    console.log(
      `insights misses (SQLite, ${rows} rows per log, cap ${ROW_CAP}): run ${run + 1}: CPU ${Math.round((used.user + used.system) / 1000)} ms, ` +
        `heap +${Math.round((process.memoryUsage().heapUsed - heap) / 1024 / 1024)} MB, read ${report.read.nlpLog.rows} + ${report.read.fuzzyQuestionAnswerLog.rows} rows (capped: ${report.read.nlpLog.capped}), ` +
        `${report.read.nlpLog.distinct} distinct inputs, ${report.unprocessed.length} + ${report.faqMisses.length} groups`,
    );
  }
} finally {
  store.close();
  await rm(dir, { recursive: true, force: true });
}
