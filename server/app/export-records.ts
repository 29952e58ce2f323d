import type { BotDefinition } from '../definition/schema.ts';
import type { IdentityLinks } from '../ports/identity-links.ts';
import type { KnownUserRow, TranscriptExportRow } from '../ports/personal-data.ts';
import { linksChannels } from './link-code.ts';
import { storedTextRecord } from './export-json.ts';
import { isoTimeFormatter } from './iso-time.ts';
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
export const LOG_FIELDS: Readonly<
  Record<Exclude<ExportName, 'userData' | 'userDataSnapshot' | 'transcript'>, readonly string[]>
> = {
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
      const titles = cards
        .map((card) =>
          typeof card === 'object' && card !== null ? text((card as Record<string, unknown>).title) : null,
        )
        .filter((title) => title !== null);
      return titles.length > 0 ? titles.join(' | ') : null;
    }
    default:
      return null;
  }
}

function transcriptData(row: TranscriptExportRow): Record<string, unknown> {
  const { message } = row;
  return {
    seq: row.seq,
    from: row.from,
    kind: typeof message.type === 'string' ? message.type : null,
    text: messageText(message),
    dialogId: row.dialogId,
    stepId: row.stepId,
    message,
  };
}

export function isExportName(name: string): name is ExportName {
  return (EXPORT_NAMES as readonly string[]).includes(name);
}

/** Every field of an export's records, in order: the CSV header and the JSON key order. */
export function recordFields(definition: BotDefinition, name: ExportName, linkByPhone = false): string[] {
  if (name === 'transcript') return ['userId', 'timestamp', ...TRANSCRIPT_FIELDS];
  const rest = name === 'userData' || name === 'userDataSnapshot' ? definition.userDataFields : LOG_FIELDS[name];
  // A bot that links channels (or a server that links signed phone numbers) lists each user's linked addresses (null for a user linked to no other).
  const linked = name === 'userData' && (linkByPhone || linksChannels(definition));
  return ['userId', 'timestamp', ...rest, ...(linked ? [LINKED] : [])];
}

/** The userData export's field of a person's linked addresses, the primary first: [{ channelId, userId }, …]. */
const LINKED = 'linkedAddresses';

export interface ExportFilters {
  /** Declared field → value it must equal, compared as strings. */
  readonly where: ReadonlyMap<string, string>;
  /** Declared fields that must all be non-empty. */
  readonly notEmpty: readonly string[];
}

export interface ExportQuery extends RangeQuery {
  readonly filters?: ExportFilters;
  /** The caller writes JSON (or NDJSON): a record may come as its JSON text instead of its values. */
  readonly json?: boolean;
}

/**
 * One exported record: its values in the order of the export's fields (recordFields), so
 * no object is built per record, or (asked for JSON) its JSON text; with the store's cursor
 * beside it (not part of the record).
 */
export type ExportItem =
  | { readonly values: readonly unknown[]; readonly json?: undefined; readonly cursor: string }
  | { readonly json: string; readonly values?: undefined; readonly cursor: string };

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

const SECRET_KEYS =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-functions-key|x-api-key|api-key|apikey|password|client_secret|access_token|refresh_token)$/i;

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

/**
 * Makes an export's record values, one per field of `fields` (userId, timestamp, then the
 * data's fields; a missing one is null). A field listed twice (a user-data field named userId,
 * or one declared twice) holds, at each listing, the value of its last listing: what assigning
 * the fields in order to one object gives, which is how records were built before.
 */
function recordValues(
  fields: readonly string[],
  secrets: boolean,
): (userId: string, timestamp: number, data: Readonly<Record<string, unknown>>) => unknown[] {
  const iso = isoTimeFormatter();
  // Per field: 0 = the user id, 1 = the time, else the data field to read.
  const sources = fields.map((field, i) => {
    const last = Math.max(i, fields.lastIndexOf(field));
    return last <= 1 ? last : field;
  });
  return (userId, timestamp, data) => {
    const values = new Array<unknown>(sources.length);
    for (let i = 0; i < sources.length; i++) {
      const source = sources[i]!;
      if (source === 0) values[i] = userId;
      else if (source === 1) values[i] = iso(timestamp);
      else {
        const value = data[source];
        values[i] = value === undefined ? null : secrets ? redact(value) : value;
      }
    }
    return values;
  };
}

/**
 * The records of one export, sorted by timestamp (ties by insertion order), a batch at a
 * time, read lazily from the store's cursor so memory stays flat. Filters apply while
 * streaming. Batches, not records one by one: at a million rows an awaited step per
 * record was a visible part of the export's cost.
 */
export async function* exportRecords(
  deps: {
    readonly store: Store;
    readonly definition: BotDefinition;
    readonly identityLinks?: IdentityLinks;
    readonly linkByPhone?: boolean;
  },
  name: ExportName,
  query: ExportQuery,
): AsyncGenerator<readonly ExportItem[], void, undefined> {
  const fields = recordFields(deps.definition, name, deps.linkByPhone);
  const range: RangeQuery = { fromMs: query.fromMs, toMs: query.toMs, after: query.after, batchSize: query.batchSize };
  const values = recordValues(fields, name === 'integrationLog');
  // Preview users (UserRecord.preview) are in no export. The store leaves them out of the user and
  // transcript reads and a preview writes no log rows; this read (few: each is erased with its
  // preview) also keeps them out of any row written before that held.
  const previews = new Set(await deps.store.previewUsers());
  const shown = (userId: string) => previews.size === 0 || !previews.has(userId);
  if (name === 'transcript') {
    for await (const rows of deps.store.exportTranscript(range).batches()) {
      const items = rows
        .filter((row) => shown(row.userId))
        .map((row) => ({ values: values(row.userId, row.at, transcriptData(row)), cursor: row.cursor }));
      if (items.length > 0) yield items;
    }
    return;
  }
  const filters = name === 'userData' || name === 'userDataSnapshot' ? query.filters : undefined;
  // userData lists every known user (not only those who wrote), by their last message, else their creation.
  const source: AsyncIterable<readonly (KnownUserRow | LogEntry)[]> =
    name === 'userData' ? deps.store.exportKnownUsers(range).batches() : deps.store.readLogs(name, range).batches();
  const linked = fields.includes(LINKED) ? deps.identityLinks : undefined;
  // Secrets are taken out of parsed data only, so the integration log's records are always written from it.
  const fromText = query.json && name !== 'integrationLog' && !linked ? storedTextRecord(fields) : null;
  for await (const rows of source) {
    const items: ExportItem[] = [];
    const persons = linked ? await linked.personsOf(rows.map((row) => row.userId)) : undefined;
    for (const row of rows) {
      const user = 'userData' in row;
      const person = persons?.get(row.userId);
      const own = user ? row.userData : row.data;
      const data = person
        ? { ...own, [LINKED]: person.addresses.map(({ channelId, userId }) => ({ channelId, userId })) }
        : own;
      if (!shown(row.userId)) continue;
      if (filters && !matches(data, filters)) continue;
      const text = user ? row.userDataJson : row.dataJson;
      const json = fromText && text !== undefined ? fromText(row.userId, row.timestamp, data, text) : undefined;
      items.push(
        json === undefined
          ? { values: values(row.userId, row.timestamp, data), cursor: row.cursor }
          : { json, cursor: row.cursor },
      );
    }
    if (items.length > 0) yield items;
  }
}
