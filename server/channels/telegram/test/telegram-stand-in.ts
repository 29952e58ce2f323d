import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The published Bot API reference, as kept in reference/ (see its README). */
interface Field {
  readonly name: string;
  readonly types: readonly string[];
  readonly required: boolean;
  readonly description: string;
}
interface Reference {
  readonly methods: Record<string, { readonly fields?: readonly Field[] }>;
  readonly types: Record<
    string,
    {
      readonly fields?: readonly Field[];
      readonly subtypes?: readonly string[];
      readonly description?: readonly string[];
    }
  >;
}
const reference = JSON.parse(
  readFileSync(new URL('./reference/telegram-bot-api.json', import.meta.url), 'utf8'),
) as Reference;

/** One call the stand-in received, with how it answered. */
export interface SeenCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly status: number;
  readonly description?: string;
}

/** A Bot API error as Telegram words it. */
class ApiError extends Error {
  constructor(
    readonly code: number,
    description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}

/** The limit a field's description states ("1-4096 characters", "1-64 bytes"), as the reference words them. */
function limitOf(field: Field): { min: number; max: number; unit: 'characters' | 'bytes' } | undefined {
  const match = /(\d+)-(\d+) (characters|bytes)/.exec(field.description);
  return match ? { min: Number(match[1]), max: Number(match[2]), unit: match[3] as 'characters' | 'bytes' } : undefined;
}

/** Checks a value against the reference's types for it; the first problem, worded as Telegram's 400s are. */
function check(value: unknown, types: readonly string[], where: string, field?: Field): string | undefined {
  const problems: string[] = [];
  for (const type of types) {
    const problem = checkOne(value, type, where, field);
    if (problem === undefined) return undefined;
    problems.push(problem);
  }
  return problems[0];
}

function checkOne(value: unknown, type: string, where: string, field?: Field): string | undefined {
  if (type.startsWith('Array of ')) {
    if (!Array.isArray(value)) return `${where} must be an Array`;
    for (const [i, item] of value.entries()) {
      const problem = checkOne(item, type.slice('Array of '.length), `${where}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  switch (type) {
    case 'String': {
      if (typeof value !== 'string') return `${where} must be a String`;
      const limit = field && limitOf(field);
      if (limit) {
        const size = limit.unit === 'bytes' ? Buffer.byteLength(value) : value.length;
        if (size < limit.min || size > limit.max)
          return `${where} must be ${limit.min}-${limit.max} ${limit.unit} (got ${size})`;
      }
      return undefined;
    }
    case 'Integer':
      return Number.isSafeInteger(value) ? undefined : `${where} must be an Integer`;
    case 'Float':
      return typeof value === 'number' ? undefined : `${where} must be a Float`;
    case 'Boolean':
      return typeof value === 'boolean' ? undefined : `${where} must be a Boolean`;
    case 'InputFile':
      return 'an InputFile is uploaded as multipart/form-data, which this connector never sends';
  }
  const spec = reference.types[type];
  if (!spec) return `${where}: type ${type} is not in the kept reference`;
  if (spec.subtypes) return check(value, spec.subtypes, where);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} must be a ${type} object`;
  return checkFields(value as Record<string, unknown>, spec.fields ?? [], `${where} (${type})`, type);
}

function checkFields(
  value: Record<string, unknown>,
  fields: readonly Field[],
  where: string,
  type?: string,
): string | undefined {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const key of Object.keys(value)) if (!known.has(key)) return `${where}: unknown field ${key}`;
  for (const field of fields) {
    if (value[field.name] === undefined) {
      if (field.required) return `${where}: ${field.name} is required`;
      continue;
    }
    const problem = check(value[field.name], field.types, `${where}.${field.name}`, field);
    if (problem) return problem;
  }
  // The type's own rule: "Exactly one of the fields other than text, icon_custom_emoji_id, and style must be used".
  if (type === 'InlineKeyboardButton') {
    const kinds = Object.keys(value).filter((k) => !['text', 'icon_custom_emoji_id', 'style'].includes(k));
    if (kinds.length !== 1)
      return `${where}: exactly one of the fields other than text must be used (got ${kinds.join(', ') || 'none'})`;
  }
  return undefined;
}

/** Checks a value against a type of the reference (for the updates a test sends and the answers the stand-in gives). */
export function checkType(value: unknown, type: string): string | undefined {
  return checkOne(value, type, type);
}

export interface TelegramStandIn {
  /** The API's base, for TELEGRAM_API_URL. */
  readonly url: string;
  readonly token: string;
  /** Every call, in arrival order. */
  readonly calls: SeenCall[];
  /** The next `count` sends to this chat are refused with 429 and this retry_after (seconds). */
  rateLimit(chatId: number, count: number, retryAfterSeconds: number): void;
  /** The user of this chat blocked the bot: sends to it get 403. */
  block(chatId: number): void;
  /** Sends to this chat get 502 Bad Gateway (Telegram's servers having a bad day). */
  breakDown(chatId: number): void;
  /** Calls of this method get no answer until `release` (a call in flight when the bot's process is killed). */
  hold(method: string): void;
  /** Answers the held calls (to a process still listening) and stops holding. */
  release(): void;
  /** The webhook setWebhook last set, with its secret. */
  webhook(): { url: string; secret: string } | undefined;
  close(): Promise<void>;
}

/**
 * A Bot API stand-in on loopback: every call is checked against the published reference (method,
 * each parameter's presence, type and stated limits, unknown parameters refused) and answered as
 * Telegram answers (`{ ok, result }` or `{ ok: false, error_code, description, parameters }`).
 * Stricter than Telegram in one way: an unknown parameter is refused, where Telegram ignores it.
 */
export async function startTelegramStandIn(
  token = '123456789:AAH-stand-in-token-0123456789abcdefghij',
  /** Told of each call as it is logged (a benchmark timing answers), besides `calls`. */
  onCall?: (call: SeenCall) => void,
): Promise<TelegramStandIn> {
  const calls: SeenCall[] = [];
  const log = (call: SeenCall) => {
    calls.push(call);
    onCall?.(call);
  };
  const limited = new Map<number, { count: number; seconds: number }>();
  const blocked = new Set<number>();
  const broken = new Set<number>();
  let hook: { url: string; secret: string } | undefined;
  let messageId = 0;
  let held: string | undefined;
  const waiting: (() => void)[] = [];

  const answer = (method: string, params: Record<string, unknown>): unknown => {
    const spec = reference.methods[method];
    if (!spec) throw new ApiError(404, 'Not Found');
    const problem = checkFields(params, spec.fields ?? [], method);
    if (problem) throw new ApiError(400, `Bad Request: ${problem}`);
    const limit = limited.get(params.chat_id as number);
    if (limit && limit.count > 0) {
      limit.count--;
      throw new ApiError(429, `Too Many Requests: retry after ${limit.seconds}`, limit.seconds);
    }
    if (method === 'sendMessage' || method === 'sendPhoto') {
      const chatId = params.chat_id as number;
      if (blocked.has(chatId)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
      if (broken.has(chatId)) throw new ApiError(502, 'Bad Gateway');
      const message = {
        message_id: ++messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private' },
        ...(method === 'sendMessage' ? { text: params.text } : { photo: [] }),
      };
      const bad = checkType({ message_id: message.message_id, date: message.date, chat: message.chat }, 'Message');
      if (bad) throw new Error(`the stand-in's own answer is not a Message: ${bad}`);
      return message;
    }
    if (method === 'setWebhook') {
      if (!String(params.url).startsWith('https://') && !String(params.url).startsWith('http://127.0.0.1'))
        throw new ApiError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
      hook = { url: String(params.url), secret: String(params.secret_token ?? '') };
      return true;
    }
    return true;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
      let method = '';
      let params: Record<string, unknown> = {};
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        if (!match || req.method !== 'POST') throw new ApiError(404, 'Not Found');
        if (match[1] !== token) throw new ApiError(401, 'Unauthorized');
        method = match[2]!;
        if (!/^application\/json/.test(req.headers['content-type'] ?? ''))
          throw new ApiError(400, 'Bad Request: this stand-in takes JSON bodies only');
        params = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const result = answer(method, params);
        if (method === held) {
          log({ method, params, status: 0, description: 'held' });
          waiting.push(() => reply(200, { ok: true, result }));
          return;
        }
        log({ method, params, status: 200 });
        reply(200, { ok: true, result });
      } catch (error) {
        const known =
          error instanceof ApiError ? error : new ApiError(500, `Internal Server Error: ${(error as Error).message}`);
        log({ method, params, status: known.code, description: known.message });
        reply(known.code, {
          ok: false,
          error_code: known.code,
          description: known.message,
          ...(known.retryAfter ? { parameters: { retry_after: known.retryAfter } } : {}),
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    rateLimit: (chatId, count, seconds) => void limited.set(chatId, { count, seconds }),
    block: (chatId) => void blocked.add(chatId),
    breakDown: (chatId) => void broken.add(chatId),
    hold: (method) => void (held = method),
    release() {
      held = undefined;
      for (const answer of waiting.splice(0)) answer();
    },
    webhook: () => hook,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let updateIds = 100_000;

/** A text message update from a private chat, checked against the reference's Update. */
export function textUpdate(
  chatId: number,
  text: string,
  options: { updateId?: number; username?: string } = {},
): Record<string, unknown> {
  const update = {
    update_id: options.updateId ?? ++updateIds,
    message: {
      message_id: updateIds,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private' },
      from: {
        id: chatId,
        is_bot: false,
        first_name: 'Ada',
        ...(options.username ? { username: options.username } : {}),
      },
      text,
    },
  };
  const problem = checkType(update, 'Update');
  if (problem) throw new Error(`a test built an invalid update: ${problem}`);
  return update;
}

/** A pressed inline button's update (a callback query on the bot's message). */
export function callbackUpdate(
  chatId: number,
  data: string,
  options: { updateId?: number } = {},
): Record<string, unknown> {
  const update = {
    update_id: options.updateId ?? ++updateIds,
    callback_query: {
      id: `cq-${updateIds}`,
      from: { id: chatId, is_bot: false, first_name: 'Ada' },
      message: { message_id: 1, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' } },
      chat_instance: `ci-${chatId}`,
      data,
    },
  };
  // MaybeInaccessibleMessage is beyond the kept reference: the query's own fields are checked.
  const { message: _message, ...query } = update.callback_query;
  const problem = checkFields(
    query,
    (reference.types.CallbackQuery?.fields ?? []).filter((f) => f.name !== 'message'),
    'CallbackQuery',
  );
  if (problem) throw new Error(`a test built an invalid callback query: ${problem}`);
  return update;
}

/** Posts an update to the bot's webhook as Telegram does, with the secret token header (or another, or none). */
export function deliver(webhookUrl: string, update: unknown, secret: string | undefined): Promise<Response> {
  return fetch(webhookUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }),
    },
    body: JSON.stringify(update),
  });
}
