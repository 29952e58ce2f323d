import type { Response } from 'express';
import type { ExportItem } from '../../app/export-records.ts';
import type { Logger } from '../../ports/logger.ts';
import type { ExportFormat } from './export-query.ts';
import { recordJson } from './record-json.ts';

/**
 * UTF-16 units of text gathered before a write (64 Ki units: 64 KiB of ASCII, at most 192 KiB of
 * UTF-8): one socket write per chunk instead of one per record or per batch.
 */
const CHUNK_UNITS = 64 * 1024;

/** Bytes of the buffers chunks are encoded into, several chunks to one buffer (a larger one for a chunk that needs it). */
const SLAB_BYTES = 1024 * 1024;

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

/**
 * Gathers an export's text into one string per ~64 Ki units and encodes each such chunk with one
 * UTF-8 pass, so a million records make a few hundred encodings and socket writes: encoding each
 * record into a buffer on its own (a call into the encoder per record, and each record's pieces
 * joined into a string of its own first) was the largest part of an export's own CPU. A chunk is
 * encoded into the free end of a large buffer, and a buffer is never written into again below a
 * chunk handed to the response (the socket may still hold it). Chunks end at record ends, which
 * are ASCII, so no surrogate pair is split or made across records. Backpressure: `add` never
 * waits; `settle` waits for 'drain' when a write found the socket full, so at most one batch of
 * records is buffered beyond the socket's high-water mark.
 */
class ChunkWriter {
  private text = '';
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private at = 0;
  private full = false;
  constructor(private readonly res: Response) {}

  get closed(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** Adds text (whole records and separators only, see above). */
  add(text: string): void {
    this.text += text;
    if (this.text.length >= CHUNK_UNITS) this.send();
  }

  /** Waits, if a write found the socket full, until it drains (or the connection closes). */
  async settle(): Promise<void> {
    if (!this.full || this.closed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
    this.full = false;
  }

  /** Sends what is gathered, then settles. */
  async flush(): Promise<void> {
    this.send();
    await this.settle();
  }

  private send(): void {
    const text = this.text;
    if (text.length === 0) return;
    this.text = '';
    // Up to 3 bytes of UTF-8 per UTF-16 unit (a surrogate pair's 4 bytes are 2 units).
    const most = text.length * 3;
    if (this.at + most > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, most));
      this.at = 0;
    }
    const start = this.at;
    this.at += this.slab.write(text, start);
    this.write(this.slab.subarray(start, this.at));
  }

  private write(bytes: Buffer): void {
    if (this.closed) return;
    if (!this.res.write(bytes)) this.full = true;
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
export async function streamExport(
  res: Response,
  batches: AsyncIterator<readonly ExportItem[]>,
  options: StreamOptions,
): Promise<void> {
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
        const free = options.limit - page.length;
        page.push(...next.value.slice(0, free));
        rest = next.value.slice(free);
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
    if (options.format === 'csv')
      res.setHeader('Content-Disposition', `attachment; filename="${options.filename}.csv"`);
    if (options.limit !== undefined && more) {
      const next = options.nextPage(head[head.length - 1]!.cursor);
      res.setHeader('X-Next-Cursor', next.cursor);
      res.setHeader('Link', `<${next.url}>; rel="next"`);
    }

    const writer = new ChunkWriter(res);
    let count = 0;
    const json = recordJson(options.fields);
    const guard = options.csvFormulaGuard ?? true;
    // Records go into the writer one by one (it gathers them into its chunk); the writer waits for
    // the socket once per batch.
    const emitAll = async (items: readonly ExportItem[]) => {
      for (const item of items) {
        if (options.format === 'csv') {
          // exportRecords gives JSON text only to a caller that asked for it, which CSV never does.
          if (item.values === undefined) throw new Error('a CSV export was handed a record as JSON text');
          writer.add(csvLine(item.values, guard));
        } else {
          const record = item.json ?? json(item.values);
          writer.add(options.format === 'ndjson' ? `${record}\n` : count > 0 ? `,\n${record}` : `\n${record}`);
        }
        count++;
      }
      await writer.settle();
    };

    if (options.format === 'json') writer.add('[');
    if (options.format === 'csv')
      writer.add(`${options.bom ? UTF8_BOM : ''}${options.fields.map((field) => csvCell(field)).join(',')}\r\n`);
    await emitAll(head);
    if (options.limit === undefined && more) {
      for (;;) {
        if (aborted) return;
        const next = await batches.next();
        if (next.done) break;
        await emitAll(next.value);
      }
    }
    if (options.format === 'json') writer.add(count === 0 ? ']' : '\n]\n');
    await writer.flush();
    if (!aborted) res.end();
  } catch (error) {
    if (!res.headersSent) throw error;
    options.logger.error(
      { err: error, export: options.filename },
      'an export failed while streaming; the connection was cut',
    );
    res.destroy(error as Error);
  } finally {
    res.off('close', onClose);
    await batches.return?.();
  }
}
