import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { blockProblems, imageUrls } from './block-kit-rules.ts';

/** The kept Web API reference (see reference/README.md). */
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly type: string;
  readonly required?: boolean;
}
const reference = JSON.parse(readFileSync(new URL('./reference/slack-web-api.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    {
      post: {
        parameters: Parameter[];
        responses: { default: { schema: { properties: { error: { enum: string[] } } } } };
      };
    }
  >;
  definitions: Record<string, { pattern?: string }>;
};
const REFERENCE_ID = 'slack-web-api';
const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ ...reference, $id: REFERENCE_ID });
const schemaAt = (pointer: string): ValidateFunction => {
  const found = ajv.getSchema(`${REFERENCE_ID}#${pointer}`);
  if (!found) throw new Error(`the kept reference has no schema at ${pointer}`);
  return found;
};
const POST_MESSAGE = '/chat.postMessage';
const successSchema = schemaAt('/paths/~1chat.postMessage/post/responses/200/schema');
const errorSchema = schemaAt('/paths/~1chat.postMessage/post/responses/default/schema');
const listedCodes = reference.paths[POST_MESSAGE]!.post.responses.default.schema.properties.error.enum;
/**
 * The error codes the stand-in may answer: the reference's list for chat.postMessage, and those the
 * method's page (https://api.slack.com/methods/chat.postMessage#errors) and the Web API's general
 * errors add, which the 2021 reference predates.
 */
const errorCodes = new Set([
  ...listedCodes,
  'invalid_blocks',
  'invalid_blocks_format',
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'invalid_json',
  'invalid_arguments',
  'unknown_method',
]);
const TS = new RegExp(reference.definitions.defs_ts!.pattern!);
const CHANNEL = new RegExp(reference.definitions.defs_channel!.pattern!);

/** One call the stand-in received, with how it answered. */
export interface SeenCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** HTTP status, and `ok`/`error` as Slack answered. */
  readonly status: number;
  readonly ok: boolean;
  readonly error?: string;
  readonly problems?: readonly string[];
  /** The ts Slack gave the posted message. */
  readonly ts?: string;
}

class SlackError extends Error {
  constructor(
    readonly code: string,
    readonly problems: readonly string[] = [],
    readonly status = 200,
    readonly retryAfter?: number,
  ) {
    super(code);
  }
}

/** Checks a chat.postMessage call against the reference's parameters (presence, type, unknown ones) and Block Kit's rules; throws Slack's error. */
function checkPostMessage(params: Record<string, unknown>): void {
  const known = new Map(
    reference.paths[POST_MESSAGE]!.post.parameters.filter((p) => p.in === 'formData').map((p) => [p.name, p]),
  );
  for (const [name, value] of Object.entries(params)) {
    const parameter = known.get(name);
    if (!parameter) throw new SlackError('invalid_arg_name', [`unknown argument "${name}"`]);
    // In a JSON body, blocks and attachments are arrays; in a form, their JSON as a string.
    const expected =
      name === 'blocks' || name === 'attachments' ? (typeof value === 'string' ? 'string' : 'array') : parameter.type;
    const actual = Array.isArray(value) ? 'array' : typeof value;
    if (actual !== expected) throw new SlackError('invalid_arg_name', [`argument "${name}" must be a ${expected}`]);
  }
  for (const parameter of known.values())
    if (parameter.required && params[parameter.name] === undefined)
      throw new SlackError('channel_not_found', [`missing required argument "${parameter.name}"`]);
  if (typeof params.thread_ts === 'string' && !TS.test(params.thread_ts))
    throw new SlackError('invalid_arguments', [`thread_ts ${params.thread_ts} is not a message's ts`]);
  const text = typeof params.text === 'string' ? params.text : '';
  // Slack itself takes blocks without a text (with a warning); the house rule is a text always, for notifications and screen readers.
  if (text.trim() === '') throw new SlackError('no_text', ['a text is required (the fallback of the blocks)']);
  if (text.length > 40_000) throw new SlackError('msg_too_long');
  if (params.blocks !== undefined) {
    const blocks: unknown = typeof params.blocks === 'string' ? JSON.parse(params.blocks) : params.blocks;
    if (!schemaAt('/definitions/blocks')(blocks))
      throw new SlackError('invalid_blocks_format', ['blocks is not an array of objects with a type']);
    const problems = blockProblems(blocks);
    if (problems.length > 0) throw new SlackError('invalid_blocks', problems);
  }
}

export interface SlackStandIn {
  /** The Web API's base, for SLACK_API_URL. */
  readonly url: string;
  readonly token: string;
  /** Every call, in arrival order. */
  readonly calls: SeenCall[];
  /** The next `count` posts to this channel get HTTP 429 with this Retry-After (seconds). */
  rateLimit(channel: string, count: number, retryAfterSeconds: number): void;
  /** The next `count` posts (any channel) get `ok: false` with this error code at HTTP 200. */
  failNext(error: string, count?: number): void;
  /** Posts to this channel get `is_archived`. */
  archive(channel: string): void;
  /** Slack cannot fetch this image: a message showing it gets invalid_blocks. */
  unreachableImage(url: string): void;
  /** Posts whose text starts with this get no answer and are not taken (a connection cut before Slack had the message), until `release`. */
  hold(textStart: string): void;
  /** Drops the held requests' connections and stops holding. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A Web API stand-in on loopback: `POST /chat.postMessage` with a Bearer token, each argument checked
 * against the published reference (unknown arguments refused, where Slack ignores them), the blocks
 * against Block Kit's written rules (block-kit-rules.ts), and answered as Slack answers: HTTP 200
 * with `{ ok: true, channel, ts, message }` or `{ ok: false, error }` (its own answers checked against
 * the reference's response schemas), HTTP 429 with Retry-After.
 */
export async function startSlackStandIn(
  token = 'xoxb-1234567890-0987654321-standInTokenAbcdefgh',
): Promise<SlackStandIn> {
  const calls: SeenCall[] = [];
  const limited = new Map<string, { count: number; seconds: number }>();
  const failures: string[] = [];
  const archived = new Set<string>();
  const unreachable = new Set<string>();
  let clock = 1_700_000_000;
  let serial = 0;
  let held: string | undefined;
  const waiting: (() => void)[] = [];

  const post = (params: Record<string, unknown>): Record<string, unknown> => {
    checkPostMessage(params);
    const channel = String(params.channel);
    if (!CHANNEL.test(channel)) throw new SlackError('channel_not_found');
    if (archived.has(channel)) throw new SlackError('is_archived');
    const limit = limited.get(channel);
    if (limit && limit.count > 0) {
      limit.count--;
      throw new SlackError('ratelimited', [], 429, limit.seconds);
    }
    const failure = failures.shift();
    if (failure) throw new SlackError(failure);
    const blocks: unknown = typeof params.blocks === 'string' ? JSON.parse(params.blocks) : params.blocks;
    const cannot = imageUrls(blocks).find((url) => unreachable.has(url));
    if (cannot) throw new SlackError('invalid_blocks', [`downloading image failed [json-pointer:/blocks] ${cannot}`]);
    const ts = `${++clock}.${String(++serial).padStart(6, '0')}`;
    const answer = {
      ok: true,
      channel,
      ts,
      message: {
        type: 'message',
        subtype: 'bot_message',
        text: String(params.text),
        ts,
        bot_id: 'B0STANDIN1',
        username: 'chatbot',
        ...(Array.isArray(blocks) ? { blocks } : {}),
      },
    };
    if (!successSchema(answer))
      throw new Error(`the stand-in's own answer breaks the reference: ${ajv.errorsText(successSchema.errors)}`);
    return answer;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\//, '').split('?')[0]!;
      let params: Record<string, unknown> = {};
      const reply = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      try {
        if (req.method !== 'POST' || `/${method}` !== POST_MESSAGE) throw new SlackError('unknown_method', [], 404);
        const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!auth) throw new SlackError('not_authed');
        if (auth !== token) throw new SlackError('invalid_auth');
        if (!/^application\/json/.test(req.headers['content-type'] ?? ''))
          throw new SlackError('invalid_post_type', ['this stand-in takes JSON bodies only']);
        try {
          params = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        } catch {
          throw new SlackError('invalid_json');
        }
        if (held !== undefined && String(params.text ?? '').startsWith(held)) {
          calls.push({ method, params, status: 0, ok: false, error: 'held' });
          waiting.push(() => res.destroy());
          return;
        }
        const answer = post(params);
        calls.push({ method, params, status: 200, ok: true, ts: String(answer.ts) });
        reply(200, answer);
      } catch (error) {
        if (!(error instanceof SlackError)) {
          calls.push({
            method,
            params,
            status: 599,
            ok: false,
            error: `the stand-in failed: ${(error as Error).message}`,
          });
          return reply(599, { ok: false, error: 'fatal_error' });
        }
        const body = {
          ok: false,
          error: error.code,
          ...(error.problems.length > 0
            ? { response_metadata: { messages: error.problems.map((problem) => `[ERROR] ${problem}`) } }
            : {}),
        };
        // The stand-in's own mistakes show as a 599 a test sees, never as an answer Slack would not give.
        const ownFault = !errorCodes.has(error.code)
          ? `the stand-in would answer an error Slack does not document: ${error.code}`
          : listedCodes.includes(error.code) && !errorSchema({ ok: false, error: error.code })
            ? `the stand-in's error answer breaks the reference: ${ajv.errorsText(errorSchema.errors)}`
            : undefined;
        if (ownFault) {
          calls.push({ method, params, status: 599, ok: false, error: ownFault });
          return reply(599, { ok: false, error: 'fatal_error' });
        }
        calls.push({ method, params, status: error.status, ok: false, error: error.code, problems: error.problems });
        reply(error.status, body, error.retryAfter ? { 'retry-after': String(error.retryAfter) } : {});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    calls,
    rateLimit: (channel, count, seconds) => void limited.set(channel, { count, seconds }),
    failNext: (error, count = 1) => void failures.push(...Array.from({ length: count }, () => error)),
    archive: (channel) => void archived.add(channel),
    unreachableImage: (url) => void unreachable.add(url),
    hold: (textStart) => void (held = textStart),
    release() {
      held = undefined;
      for (const drop of waiting.splice(0)) drop();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
