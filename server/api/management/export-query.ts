import type { Request } from 'express';
import { USER_DATA_EXPORTS, type ExportFilters, type ExportName } from '../../app/export-records.ts';
import { HttpError } from '../../ports/http-error.ts';

/** Largest page a caller may ask for with `limit`. */
export const MAX_LIMIT = 10_000;
/** 9999-12-31T23:59:59Z: later seconds cannot be shown as an ISO 8601 date. */
export const MAX_TIMESTAMP = 253_402_300_799;

export type ExportFormat = 'json' | 'ndjson' | 'csv';

export interface ParsedExportQuery {
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly limit?: number;
  /** The store cursor to resume after, unwrapped from the caller's opaque cursor. */
  readonly after?: string;
  readonly format: ExportFormat;
  readonly filters?: ExportFilters;
  /** CSV only: start with a UTF-8 byte order mark (default true, so spreadsheets read UTF-8). */
  readonly bom: boolean;
  /** CSV only: prefix text cells a spreadsheet would run as a formula with ' (default true). */
  readonly csvFormulaGuard: boolean;
}

const COMMON = ['code', 'fromTimestamp', 'toTimestamp', 'limit', 'cursor', 'format', 'bom', 'csvFormulaGuard'];

/** A true/false switch that only means something for format=csv. */
function csvSwitch(req: Request, name: string, format: ExportFormat): boolean {
  const value = single(req, name);
  if (value === undefined) return true;
  if (value !== 'true' && value !== 'false') throw invalid(name, `${name} must be true or false.`);
  if (format !== 'csv') throw invalid(name, `${name} applies to CSV only: add format=csv, or leave ${name} out.`);
  return value === 'true';
}

function invalid(parameter: string, message: string, details: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, 'invalid_parameter', message, { parameter, ...details });
}

function single(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, `Give ${name} at most once, as a plain value.`);
  return value;
}

function seconds(req: Request, name: string): number | undefined {
  const value = single(req, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,12}$/.test(value) || Number(value) > MAX_TIMESTAMP) {
    throw invalid(
      name,
      `${name} must be a UNIX timestamp in whole seconds, from 0 to ${MAX_TIMESTAMP} (got ${JSON.stringify(value.slice(0, 40))}).`,
    );
  }
  return Number(value) * 1000;
}

/** Our page cursor wraps the store's, tagged with the export it belongs to, so it cannot be used on another export. */
export function encodePageCursor(name: ExportName | 'audit', storeCursor: string): string {
  return Buffer.from(JSON.stringify([name, storeCursor]), 'utf8').toString('base64url');
}

function decodePageCursor(name: ExportName | 'audit', cursor: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && parsed[0] === name && typeof parsed[1] === 'string')
      return parsed[1];
  } catch {
    // fall through to the error below
  }
  throw invalid(
    'cursor',
    'cursor is not one this export handed out: pass the X-Next-Cursor value of the previous page unchanged.',
  );
}

function resolveField(fields: readonly string[], name: string, parameter: string): string {
  const field = fields.find((f) => f.toLowerCase() === name.toLowerCase());
  if (field === undefined) {
    throw invalid(
      parameter,
      `"${name}" is not a user-data field of this bot. Known fields: ${fields.join(', ') || '(none)'}.`,
      {
        knownFields: fields,
      },
    );
  }
  return field;
}

function filtersOf(req: Request, userDataFields: readonly string[]): ExportFilters | undefined {
  const where = new Map<string, string>();
  for (const key of Object.keys(req.query as object)) {
    if (!/^where./i.test(key)) continue;
    const field = resolveField(userDataFields, key.slice(5), key);
    const value = single(req, key) ?? '';
    if (where.has(field) && where.get(field) !== value)
      throw invalid(key, `${field} is filtered twice with different values.`);
    where.set(field, value);
  }
  const listed = single(req, 'notEmpty');
  const notEmpty =
    listed === undefined
      ? []
      : listed
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
          .map((name) => resolveField(userDataFields, name, 'notEmpty'));
  return where.size > 0 || notEmpty.length > 0 ? { where, notEmpty } : undefined;
}

/** Reads and checks an export's query string; anything unexpected is a 400 naming the parameter. */
export function parseExportQuery(
  req: Request,
  name: ExportName | 'audit',
  userDataFields: readonly string[],
): ParsedExportQuery {
  const userData = name !== 'audit' && USER_DATA_EXPORTS.includes(name);
  for (const key of Object.keys(req.query as object)) {
    const allowed = COMMON.includes(key) || (userData && (key === 'notEmpty' || /^where./i.test(key)));
    if (!allowed) {
      const known = userData ? [...COMMON.slice(1), 'notEmpty', 'where<FieldName>'] : COMMON.slice(1);
      throw invalid(key, `${key} is not a parameter of the ${name} export. Known parameters: ${known.join(', ')}.`);
    }
  }
  const fromMs = seconds(req, 'fromTimestamp');
  const toMs = seconds(req, 'toTimestamp');
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
    throw invalid('fromTimestamp', 'fromTimestamp must not be later than toTimestamp.');
  }
  const limitText = single(req, 'limit');
  if (
    limitText !== undefined &&
    (!/^\d{1,5}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIMIT)
  ) {
    throw invalid('limit', `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  const cursor = single(req, 'cursor');
  const formatText = single(req, 'format');
  if (formatText !== undefined && !['json', 'ndjson', 'csv'].includes(formatText)) {
    throw invalid('format', 'format must be json, ndjson or csv.');
  }
  const format: ExportFormat = (formatText as ExportFormat | undefined) ?? preferred(req);
  return {
    fromMs,
    toMs,
    limit: limitText === undefined ? undefined : Number(limitText),
    after: cursor === undefined ? undefined : decodePageCursor(name, cursor),
    format,
    filters: userData ? filtersOf(req, userDataFields) : undefined,
    bom: csvSwitch(req, 'bom', format),
    csvFormulaGuard: csvSwitch(req, 'csvFormulaGuard', format),
  };
}

/** Accept: application/x-ndjson asks for NDJSON; csv only through format=csv; JSON otherwise. */
function preferred(req: Request): ExportFormat {
  const accept = req.get('accept') ?? '';
  return /application\/x-ndjson/i.test(accept) && !/application\/json/i.test(accept) ? 'ndjson' : 'json';
}
