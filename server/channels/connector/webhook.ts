import { isUtf8 } from 'node:buffer';
import { checkJsonBounds, describeJsonExcess, DEFAULT_JSON_BOUNDS } from '../../../shared/json-bounds.ts';
import type { ChannelInbox } from '../../ports/channel-inbox.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import type { Store } from '../../ports/store.ts';
import type { WebhookHandler, WebhookRequest } from '../../ports/webhook-request.ts';
import type { Connector, InboundMessage } from './connector.ts';
import { TURN_JOB, turnJob } from './inbound-job.ts';
import { orderedJobId } from './ordered-id.ts';
import { truncate, utf8Bytes } from './graphemes.ts';
import { MAX_TEXT_BYTES } from '../../../shared/protocol.ts';

/** A first copy's job still missing this long after it arrived was never stored: its process stopped between the two writes. */
const ORPHAN_AFTER_MS = 10_000;

export interface WebhookOptions {
  readonly connectors: ReadonlyMap<string, Connector>;
  readonly inbox: ChannelInbox;
  readonly scheduler: Pick<Scheduler, 'schedule' | 'committed' | 'leaseOnCommit' | 'giveWay'>;
  readonly store: Pick<Store, 'getJob'>;
  readonly now: () => number;
}

/**
 * `POST /api/webhooks/{connector}`: verify → parse → store each event once under its unique
 * (channel, event id) with its turn job → 200. The turn never runs inside the request (a slow
 * turn would make the vendor time out and deliver again); a redelivery finds its event stored and
 * changes nothing. Nothing is stored before every check has passed.
 */
export function webhookHandler(options: WebhookOptions): WebhookHandler {
  const handle = receive(options);
  return (request) => {
    // The queued turns wait a little while a webhook is being stored: the vendor waits for its 200.
    const answer = handle(request);
    options.scheduler.giveWay?.(answer);
    return answer;
  };
}

function receive(options: WebhookOptions): WebhookHandler {
  return async (request) => {
    const connector = options.connectors.get(request.connector.toLowerCase());
    if (!connector)
      throw new HttpError(
        404,
        'not_found',
        `There is no channel named "${request.connector.slice(0, 64)}" on this bot; channels are set up in the environment or in the studio, Settings → Channels (docs/channels.md).`,
      );
    if (request.method === 'GET' && connector.handshake) {
      const answer = connector.handshake(request);
      return { status: answer.status, body: answer.body, text: true };
    }
    if (request.method !== 'POST') {
      const allow = connector.handshake ? 'GET, POST' : 'POST';
      throw new HttpError(
        405,
        'method_not_allowed',
        `${request.method} is not allowed here; the vendor POSTs its events.`,
        { allow },
      );
    }
    const raw = await request.readBody(connector.maxBodyBytes);
    await connector.verify(request, raw);
    const body = parseBody(bodyFormat(connector, request), raw);
    const challenged = connector.challenge?.(body);
    if (challenged) return challenged;
    // A connector may record what an event says before answering (an SMS opt-out), so the vendor redelivers it if that fails.
    const messages = await connector.parse(body, raw);
    for (const message of messages) await accept(options, connector, message);
    return { status: 200, body: { ok: true } };
  };
}

async function accept(options: WebhookOptions, connector: Connector, message: InboundMessage): Promise<void> {
  if (
    message.eventId === '' ||
    message.eventId.length > 256 ||
    message.address === '' ||
    message.address.length > 200
  ) {
    throw new HttpError(400, 'invalid_body', 'The event has no usable id or sender.');
  }
  // As the other channels: a user's text is at most MAX_TEXT_BYTES (a vendor counts characters, which may be more bytes).
  if (message.input.kind === 'text' && utf8Bytes(message.input.text) > MAX_TEXT_BYTES) {
    message = { ...message, input: { kind: 'text', text: truncate(message.input.text, MAX_TEXT_BYTES, utf8Bytes) } };
  }
  const now = options.now();
  // Stored with the event in one commit, leased to this node's runner when it has room: the turn starts
  // as the commit lands, with no claim.
  const job = turnJob(orderedJobId(TURN_JOB, now), connector.name, message, now);
  const leased = options.scheduler.leaseOnCommit?.(job) ?? job;
  const accepted = await options.inbox.accept({
    channel: connector.name,
    eventId: message.eventId,
    job: leased,
    receivedAt: now,
  });
  if (accepted.fresh) return options.scheduler.committed?.([leased]);
  // A copy seen before: its job is there, unless the first copy's process stopped between the two writes
  // of a store that cannot make them one (then the vendor, having had no 200, delivers again, and this copy
  // stores the job under the same id). A copy arriving while the first is between its writes must not: its
  // job would run a second time.
  if (now - accepted.receivedAt < ORPHAN_AFTER_MS) return;
  if (!(await options.store.getJob(accepted.jobId))) await options.scheduler.schedule({ ...job, id: accepted.jobId });
}

/** How to read this request's body: the connector's format, or (json-or-form) the one its Content-Type names. */
function bodyFormat(connector: Connector, request: WebhookRequest): 'json' | 'form' {
  if (connector.bodyFormat !== 'json-or-form') return connector.bodyFormat;
  const type = String(request.headers['content-type'] ?? '')
    .split(';', 1)[0]!
    .trim()
    .toLowerCase();
  return type === 'application/x-www-form-urlencoded' ? 'form' : 'json';
}

function parseBody(format: 'json' | 'form', raw: Buffer): unknown {
  if (!isUtf8(raw)) throw new HttpError(400, 'invalid_body', 'The request body is not valid UTF-8.');
  const text = raw.toString('utf8');
  if (format === 'form') return new URLSearchParams(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid JSON.');
  }
  const excess = checkJsonBounds(body, DEFAULT_JSON_BOUNDS);
  if (excess)
    throw new HttpError(
      413,
      'payload_too_large',
      `The request body is refused because ${describeJsonExcess(excess)}.`,
      { limit: excess.limit, max: excess.max },
    );
  return body;
}
