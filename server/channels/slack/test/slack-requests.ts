import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

/** The Events API's published envelope (see reference/README.md); every event a test sends is checked against it. */
const events = JSON.parse(readFileSync(new URL('./reference/slack-events-api.json', import.meta.url), 'utf8')) as {
  components: { schemas: { GenericEventWrapper: object } };
};
const wrapper = new Ajv({ strict: false, allErrors: true, validateSchema: false }).compile(
  events.components.schemas.GenericEventWrapper,
);

export const TEAM = 'T0STANDIN1';
export const APP = 'A0STANDIN1';
export const BOT_USER = 'U0BOTUSER1';

/**
 * Slack's v0 request signature, as a test signs what it posts: written from Slack's published steps
 * ("Verifying requests from Slack": `v0:` + timestamp + `:` + body, HMAC-SHA256 with the signing
 * secret, hex, prefixed `v0=`), apart from the connector's own check, so a test of that check is not circular.
 */
export function slackSignature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

const newEventId = () => `Ev${randomBytes(6).toString('hex').toUpperCase()}`;
let clock = 1_700_000_000;
/** A message ts as Slack gives them: seconds, a dot, six digits. */
export const newTs = () => `${++clock}.${String(clock % 1_000_000).padStart(6, '0')}`;

function wrap(event: Record<string, unknown>, eventId = newEventId()): Record<string, unknown> {
  const body = {
    token: 'deprecated-verification-token',
    team_id: TEAM,
    api_app_id: APP,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authed_users: [BOT_USER],
  };
  if (!wrapper(body))
    throw new Error(`a test built an event the Events API reference refuses: ${JSON.stringify(wrapper.errors)}`);
  return body;
}

/** A direct message to the bot (message.im). */
export function directMessage(
  channel: string,
  user: string,
  text: string,
  options: { eventId?: string; botId?: string; subtype?: string } = {},
): Record<string, unknown> {
  const ts = newTs();
  return wrap(
    {
      type: 'message',
      channel,
      channel_type: 'im',
      user,
      text,
      ts,
      event_ts: ts,
      ...(options.botId ? { bot_id: options.botId } : {}),
      ...(options.subtype ? { subtype: options.subtype } : {}),
    },
    options.eventId,
  );
}

/** A message in a channel that mentions the bot (app_mention); in a thread when `threadTs` is given. */
export function mention(
  channel: string,
  user: string,
  text: string,
  options: { eventId?: string; threadTs?: string; ts?: string } = {},
): Record<string, unknown> {
  const ts = options.ts ?? newTs();
  return wrap(
    {
      type: 'app_mention',
      channel,
      user,
      text: `<@${BOT_USER}> ${text}`.trimEnd(),
      ts,
      event_ts: ts,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
    },
    options.eventId,
  );
}

/** The same message in the channel as a plain message event (Slack sends both when the app subscribes to both). */
export function channelMessage(channel: string, user: string, text: string): Record<string, unknown> {
  const ts = newTs();
  return wrap({ type: 'message', channel, channel_type: 'channel', user, text, ts, event_ts: ts });
}

/** A click on a button of one of the bot's messages (block_actions), as Slack posts it: a form with a JSON `payload`. */
export function buttonClick(
  channel: string,
  user: string,
  value: string,
  message: { ts: string; threadTs?: string },
  options: { triggerId?: string; select?: boolean } = {},
): URLSearchParams {
  const actionTs = newTs();
  const action = options.select
    ? {
        type: 'static_select',
        action_id: 'choose',
        block_id: 'b1',
        selected_option: { text: { type: 'plain_text', text: 'x' }, value },
        action_ts: actionTs,
      }
    : {
        type: 'button',
        action_id: 'choice-0',
        block_id: 'b1',
        text: { type: 'plain_text', text: 'x' },
        value,
        action_ts: actionTs,
      };
  const payload = {
    type: 'block_actions',
    user: { id: user, username: 'ada', name: 'ada', team_id: TEAM },
    api_app_id: APP,
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: message.ts, channel_id: channel, is_ephemeral: false },
    trigger_id: options.triggerId ?? `${clock}.${randomBytes(4).toString('hex')}`,
    team: { id: TEAM, domain: 'stand-in' },
    channel: { id: channel, name: 'directmessage' },
    message: {
      type: 'message',
      ts: message.ts,
      ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
      bot_id: 'B0STANDIN1',
      text: 'x',
    },
    response_url: 'https://hooks.slack.com/actions/T0STANDIN1/1/x',
    actions: [action],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) });
}

export interface PostOptions {
  readonly secret: string;
  /** The request's time in seconds (default: now); the signature covers it. */
  readonly timestamp?: number;
  /** A signature to send instead of the right one ('' sends none). */
  readonly signature?: string;
  readonly retryNum?: number;
}

/** Posts to the bot's Request URL as Slack does: the exact bytes, signed over them and the timestamp. */
export function postToSlackWebhook(
  url: string,
  body: Record<string, unknown> | URLSearchParams,
  options: PostOptions,
): Promise<Response> {
  const raw = body instanceof URLSearchParams ? body.toString() : JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = options.signature ?? slackSignature(options.secret, timestamp, raw);
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': body instanceof URLSearchParams ? 'application/x-www-form-urlencoded' : 'application/json',
      'x-slack-request-timestamp': timestamp,
      ...(signature === '' ? {} : { 'x-slack-signature': signature }),
      ...(options.retryNum
        ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
        : {}),
    },
    body: raw,
  });
}
