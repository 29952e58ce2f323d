import type { BotDefinition } from '../definition/schema.ts';
import type { KnownUserRow, TranscriptExportRow } from '../ports/personal-data.ts';
import { LOG_KINDS, type LogEntry, type RangeQuery, type Store } from '../ports/store.ts';

/**
 * The spec's eight export endpoints (section 4.1), by the name in their path: userData, then
 * the store's log kinds; then, beyond the spec, the transcript of every user.
 */
export const EXPORT_NAMES = ['userData', ...LOG_KINDS, 'transcript'] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

/** Exports whose records carry the bot's user-data fields, and so take where<FieldName> and notEmpty. */
export const USER_DATA_EXPORTS: readonly ExportName[] = ['userData', 'userDataSnapshot'];

/** Record fields after userId and timestamp, exactly as the spec's section 2 lists them. */
export const LOG_FIELDS: Readonly<Record<Exclude<ExportName, 'userData' | 'userDataSnapshot' | 'transcript'>, readonly string[]>> = {
  nlpLog: ['dialogId', 'stepId', 'stepType', 'query', 'modelId', 'intent', 'result', 'processed'],
  outgoingEmail: ['body', 'from', 'recipients', 'replyTo', 'stepId', 'subject'],
  outgoingSms: ['channel', 'link', 'message', 'provider', 'recipients'],
  fuzzyQuestionAnswerLog: ['intent', 'score', 'text', 'stepId', 'dialogId', 'matched', 'otherClassifications'],
  integrationLog: ['url', 'method', 'requestBody', 'requestHeaders', 'responseStatus', 'responseBody', 'duration'],
  urlTracker: ['domain', 'url'],
};

/**
 * Transcript export record fields after userId and timestamp (the entry's time): the per-user
 * sequence number, the sender, what a person reads (the message's kind and its text), the
 * dialog and step that said a bot message, and last the message as the widget received it.
 */
export const TRANSCRIPT_FIELDS = ['seq', 'from', 'kind', 'text', 'dialogId', 'stepId', 'message'] as const;

/**
 * The words of a message, for a spreadsheet: a text or notice's text, a pressed button's
 * label, an image's alt text, a carousel's card titles, an event's name; null when it has none.
 */
export function messageText(message: Readonly<Record<string, unknown>>): string | null {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  switch (message.type) {
    case 'text':
    case 'notice':
      return text(message.text);
    case 'postback':
    case 'dialog':
      return text(message.label);
    case 'image':
      return text(message.alt);
    case 'event':
      return text(message.name);
    case 'carousel': {
      const cards = Array.isArray(message.cards) ? (message.cards as unknown[]) : [];
      const titles = cards.map((card) => (typeof card === 'object' && card !== null ? text((card as Record<string, unknown>).title) : null)).filter((title) => title !== null);
      return titles.length > 0 ? titles.join(' | ') : null;
    }
    default:
      return null;
  }
}

function transcriptRecord(fields: readonly string[], row: TranscriptExportRow): Record<string, unknown> {
  const { message } = row;
  return toRecord(
    fields,
    row.userId,
    row.at,
    { seq: row.seq, from: row.from, kind: typeof message.type === 'string' ? message.type : null, text: messageText(message), dialogId: row.dialogId, stepId: row.stepId, message },
    false,
  );
}

export function isExportName(name: string): name is ExportName {
  return (EXPORT_NAMES as readonly string[]).includes(name);
}

/** Every field of an export's records, in order: the CSV header and the JSON key order. */
export function recordFields(definition: BotDefinition, name: ExportName): string[] {
  if (name === 'transcript') return ['userId', 'timestamp', ...TRANSCRIPT_FIELDS];
  const rest = name === 'userData' || name === 'userDataSnapshot' ? definition.userDataFields : LOG_FIELDS[name];
  return ['userId', 'timestamp', ...rest];
}

export interface ExportFilters {
  /** Declared field → value it must equal, compared as strings. */
  readonly where: ReadonlyMap<string, string>;
  /** Declared fields that must all be non-empty. */
  readonly notEmpty: readonly string[];
}

export interface ExportQuery extends RangeQuery {
  readonly filters?: ExportFilters;
}

/** One exported record, keyed by its fields in order, with the store's cursor beside it (not part of the record). */
export interface ExportItem {
  readonly record: Record<string, unknown>;
  readonly cursor: string;
}

/** missing, null, "", [] and {} are empty (decisions.md). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Values compare as strings: `whereAge=42` matches 42 and "42"; objects compare by their JSON. */
function asString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function matches(data: Readonly<Record<string, unknown>>, filters: ExportFilters | undefined): boolean {
  if (!filters) return true;
  for (const [field, expected] of filters.where) if (asString(data[field]) !== expected) return false;
  for (const field of filters.notEmpty) if (isEmptyValue(data[field])) return false;
  return true;
}

const SECRET_KEYS = /^(authorization|proxy-authorization|cookie|set-cookie|x-functions-key|x-api-key|api-key|apikey|password|client_secret|access_token|refresh_token)$/i;

/**
 * Secrets never reach a record (decisions.md). The integration log is
 * redacted when written; this second pass guards against a writer that forgot.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEYS.test(key) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

function toRecord(
  fields: readonly string[],
  userId: string,
  timestamp: number,
  data: Readonly<Record<string, unknown>>,
  secrets: boolean,
): Record<string, unknown> {
  const record: Record<string, unknown> = { userId, timestamp: new Date(timestamp).toISOString() };
  for (let i = 2; i < fields.length; i++) {
    const field = fields[i]!;
    const value = data[field];
    record[field] = value === undefined ? null : secrets ? redact(value) : value;
  }
  return record;
}

/**
 * The records of one export, sorted by timestamp (ties by insertion order),
 * read lazily from the store's cursor so memory stays flat. Filters apply
 * while streaming. A hand-written iterator rather than a second async
 * generator over the store's: at a million rows the extra layer of promises
 * per row was a visible part of the export's cost.
 */
export function exportRecords(
  deps: { readonly store: Store; readonly definition: BotDefinition },
  name: ExportName,
  query: ExportQuery,
): AsyncIterableIterator<ExportItem> {
  const fields = recordFields(deps.definition, name);
  const range: RangeQuery = { fromMs: query.fromMs, toMs: query.toMs, after: query.after, batchSize: query.batchSize };
  const secrets = name === 'integrationLog';
  const filtered = name === 'userData' || name === 'userDataSnapshot';
  // userData lists every known user (not only those who wrote), by their last message, else their creation.
  const source: AsyncIterator<KnownUserRow | LogEntry | TranscriptExportRow> =
    name === 'userData'
      ? deps.store.exportKnownUsers(range)[Symbol.asyncIterator]()
      : name === 'transcript'
        ? deps.store.exportTranscript(range)[Symbol.asyncIterator]()
        : deps.store.readLogs(name, range)[Symbol.asyncIterator]();
  // Preview users (UserRecord.preview) are in no export: read once, few (erased with their draft's previews).
  let previews: ReadonlySet<string> | undefined;
  const iterator: AsyncIterableIterator<ExportItem> = {
    async next() {
      previews ??= new Set(await deps.store.previewUsers());
      for (;;) {
        const step = await source.next();
        if (step.done) return { done: true, value: undefined };
        const row = step.value;
        if (previews.size > 0 && previews.has(row.userId)) continue;
        if ('seq' in row) return { done: false, value: { record: transcriptRecord(fields, row), cursor: row.cursor } };
        const data = 'userData' in row ? row.userData : row.data;
        if (filtered && !matches(data, query.filters)) continue;
        return { done: false, value: { record: toRecord(fields, row.userId, row.timestamp, data, secrets), cursor: row.cursor } };
      }
    },
    async return() {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
