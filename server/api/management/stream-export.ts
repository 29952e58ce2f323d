import type { Response } from 'express';
import type { ExportItem } from '../../app/export-records.ts';
import type { Logger } from '../../ports/logger.ts';
import type { ExportFormat } from './export-query.ts';
import { recordJson } from './record-json.ts';

/** Bytes gathered before a write: one socket write per ~64 KiB instead of one per record. */
const CHUNK_BYTES = 64 * 1024;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

/** The UTF-8 byte order mark: without it Excel on Windows reads a CSV file as the local code page ("CafÃ©"). */
export const UTF8_BOM = '\uFEFF';

/**
 * A cell of CSV per RFC 4180. With `formulaGuard` (the default), text starting with
 * = + - @ (or a tab/CR) gets a leading ' so spreadsheets do not run it as a formula.
 */
export function csvCell(value: unknown, formulaGuard = true): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (formulaGuard && typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(values: readonly unknown[], formulaGuard: boolean): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvCell(values[i], formulaGuard);
  return `${line}\r\n`;
}

/** Writes strings in chunks and waits for 'drain' when the socket is full, so a slow reader never makes us buffer. */
class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly res: Response) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Returns a promise only when it flushed, so a small batch (a filtered one, a short page) needs no await. */
  write(text: string): Promise<void> | undefined {
    this.parts.push(text);
    this.size += text.length;
    return this.size >= CHUNK_BYTES ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.size === 0 || this.closed) return;
    // Encoded here, once: given a string, the HTTP layer measures its UTF-8 length (walking a
    // text built of many pieces) and the socket then encodes it again.
    const chunk = Buffer.from(this.parts.length === 1 ? this.parts[0]! : this.parts.join(''), 'utf8');
    this.parts = [];
    this.size = 0;
    if (this.res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }
}

export interface StreamOptions {
  readonly format: ExportFormat;
  readonly fields: readonly string[];
  /** Page size; no paging headers when absent. */
  readonly limit?: number;
  /** The URL of the page after the given store cursor. */
  readonly nextPage: (storeCursor: string) => { readonly url: string; readonly cursor: string };
  readonly filename: string;
  readonly logger: Logger;
  /** CSV: start with a UTF-8 byte order mark. Default false. */
  readonly bom?: boolean;
  /** CSV: guard cells against formula injection. Default true. */
  readonly csvFormulaGuard?: boolean;
}

/**
 * Sends an export: a JSON array, NDJSON or CSV, written record by record from
 * the store's cursor. Memory stays flat without `limit`; with it, one page
 * (at most 10 000 records) is held so the next-page headers can be sent first.
 * Errors before the first byte become the usual error body (thrown to the
 * caller); after it the connection is cut, so a client never takes a
 * truncated export for a whole one.
 */
export async function streamExport(res: Response, batches: AsyncIterator<readonly ExportItem[]>, options: StreamOptions): Promise<void> {
  let aborted = false;
  const onClose = () => {
    aborted = true;
  };
  // Not req's 'close': it fires once the request body is read, which for a GET is at once.
  res.once('close', onClose);
  try {
    let head: readonly ExportItem[];
    let more = false;
    if (options.limit !== undefined) {
      const page: ExportItem[] = [];
      let rest: readonly ExportItem[] = [];
      while (page.length < options.limit) {
        const next = await batches.next();
        if (next.done) break;
        const room = options.limit - page.length;
        page.push(...next.value.slice(0, room));
        rest = next.value.slice(room);
      }
      head = page;
      if (page.length === options.limit) more = rest.length > 0 || !(await batches.next()).done;
    } else {
      // Read the first batch before answering, so a bad cursor or an unreachable store still gets a proper error.
      const first = await batches.next();
      head = first.done ? [] : first.value;
      more = !first.done;
    }

    res.status(200);
    res.setHeader('Content-Type', CONTENT_TYPES[options.format]);
    res.setHeader('Cache-Control', 'no-store');
    if (options.format === 'csv') res.setHeader('Content-Disposition', `attachment; filename="${options.filename}.csv"`);
    if (options.limit !== undefined && more) {
      const next = options.nextPage(head[head.length - 1]!.cursor);
      res.setHeader('X-Next-Cursor', next.cursor);
      res.setHeader('Link', `<${next.url}>; rel="next"`);
    }

    const writer = new ChunkWriter(res);
    let count = 0;
    const json = recordJson(options.fields);
    const guard = options.csvFormulaGuard ?? true;
    // A batch becomes one string and one write: the writer's bookkeeping per record added up at a million records.
    const batchText = (items: readonly ExportItem[]): string => {
      let text = '';
      for (const item of items) {
        if (options.format === 'csv') {
          // exportRecords gives JSON text only to a caller that asked for it, which CSV never does.
          if (item.values === undefined) throw new Error('a CSV export was handed a record as JSON text');
          text += csvLine(item.values, guard);
        } else {
          const record = item.json ?? json(item.values);
          text += options.format === 'json' ? (count === 0 ? '\n' : ',\n') + record : `${record}\n`;
        }
        count++;
      }
      return text;
    };

    if (options.format === 'json') await writer.write('[');
    if (options.format === 'csv') await writer.write(`${options.bom ? UTF8_BOM : ''}${options.fields.map((field) => csvCell(field)).join(',')}\r\n`);
    const emitAll = async (items: readonly ExportItem[]) => {
      const flushing = writer.write(batchText(items));
      if (flushing) await flushing;
    };
    await emitAll(head);
    if (options.limit === undefined && more) {
      for (;;) {
        if (aborted) return;
        const next = await batches.next();
        if (next.done) break;
        await emitAll(next.value);
      }
    }
    if (options.format === 'json') await writer.write(count === 0 ? ']' : '\n]\n');
    await writer.flush();
    if (!aborted) res.end();
  } catch (error) {
    if (!res.headersSent) throw error;
    options.logger.error({ err: error, export: options.filename }, 'an export failed while streaming; the connection was cut');
    res.destroy(error as Error);
  } finally {
    res.off('close', onClose);
    await batches.return?.();
  }
}
