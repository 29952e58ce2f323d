import { checkJsonBounds, describeJsonExcess, DEFAULT_JSON_BOUNDS } from '../../../shared/json-bounds.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { InboundMessage } from '../connector/connector.ts';

/**
 * Where a Slack conversation answers: a direct message's channel (`D…`), or a channel and the thread
 * the first mention started (`C…/1700000000.000100`): in a channel, each thread is a conversation.
 */
export function slackAddress(channel: string, threadTs?: string): string {
  return channel.startsWith('D') || threadTs === undefined ? channel : `${channel}/${threadTs}`;
}

/** The channel and thread an address names. */
export function slackTarget(address: string): { channel: string; threadTs?: string } {
  const [channel, threadTs] = address.split('/', 2);
  return threadTs ? { channel: channel!, threadTs } : { channel: channel! };
}

interface SlackEvent {
  type?: unknown;
  subtype?: unknown;
  channel?: unknown;
  channel_type?: unknown;
  user?: unknown;
  bot_id?: unknown;
  text?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What Slack tells about who wrote: declared user-data fields of these names become user data. */
function known(user: string | undefined, team: string | undefined): Record<string, string> {
  return { ...(user ? { slackUserId: user } : {}), ...(team ? { slackTeamId: team } : {}) };
}

/** A mention of the bot (`<@U0LAN0Z89>`) said first is how the message reached it, not what the user said. */
const withoutLeadingMentions = (said: string) => said.replace(/^(\s*<@[UW][A-Z0-9]+(\|[^>]*)?>)+\s*/, '');

/**
 * An Events API callback (`event_callback`) → the message it carries, if the bot answers it: a direct
 * message to the bot (`message`, `channel_type: im`, no subtype), or a mention of the bot in a channel
 * (`app_mention`; answered in its thread). The bot's own messages and other bots' (`bot_id`), edits,
 * joins and other subtypes are dropped; so are `message` events in channels, where the mention
 * arrives as its own `app_mention`, which would answer it twice.
 */
export function eventMessages(body: Record<string, unknown>): InboundMessage[] {
  if (body.type !== 'event_callback') return [];
  const eventId = text(body.event_id);
  if (!eventId) throw new HttpError(400, 'invalid_body', 'A Slack event_callback needs an event_id.');
  const event = (typeof body.event === 'object' && body.event !== null ? body.event : {}) as SlackEvent;
  const channel = text(event.channel);
  const user = text(event.user);
  const said = text(event.text);
  if (event.bot_id !== undefined || event.subtype !== undefined || !channel || !user || said === undefined) return [];
  const team = text(body.team_id);
  if (event.type === 'message' && event.channel_type === 'im') {
    if (said.trim() === '') return [];
    return [
      {
        eventId,
        address: slackAddress(channel),
        input: { kind: 'text', text: said.slice(0, 4000) },
        userData: known(user, team),
      },
    ];
  }
  if (event.type === 'app_mention' && !channel.startsWith('D')) {
    const ts = text(event.thread_ts) ?? text(event.ts);
    if (!ts) return [];
    const asked = withoutLeadingMentions(said);
    // A bare mention opens the conversation (a new thread hears the start dialog).
    const input =
      asked.trim() === '' ? ({ kind: 'open' } as const) : ({ kind: 'text', text: asked.slice(0, 4000) } as const);
    return [{ eventId, address: slackAddress(channel, ts), input, userData: known(user, team) }];
  }
  return [];
}

interface BlockAction {
  type?: unknown;
  value?: unknown;
  action_ts?: unknown;
  selected_option?: { value?: unknown };
}

/**
 * An interactivity payload (a form post whose `payload` field is JSON) → the choice a pressed button
 * or a picked option names (its value is the ladder's choice id). Link buttons (Slack posts their
 * clicks too), modals and shortcuts are dropped. Slack gives a click no event id: its `trigger_id`,
 * unique to the click, is one.
 */
export function interactionMessages(form: URLSearchParams): InboundMessage[] {
  const raw = form.get('payload');
  if (raw === null)
    throw new HttpError(
      400,
      'invalid_body',
      'A Slack interactivity request carries its payload in a "payload" form field.',
    );
  let payload: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    payload = parsed as Record<string, unknown>;
  } catch {
    throw new HttpError(
      400,
      'invalid_body',
      'The "payload" form field of a Slack interactivity request is not a JSON object.',
    );
  }
  const excess = checkJsonBounds(payload, DEFAULT_JSON_BOUNDS);
  if (excess)
    throw new HttpError(
      413,
      'payload_too_large',
      `The interactivity payload is refused because ${describeJsonExcess(excess)}.`,
      { limit: excess.limit, max: excess.max },
    );
  if (payload.type !== 'block_actions') return [];
  const user = payload.user as { id?: unknown; team_id?: unknown } | undefined;
  const channel =
    text((payload.channel as { id?: unknown } | undefined)?.id) ??
    text((payload.container as { channel_id?: unknown } | undefined)?.channel_id);
  const message = payload.message as { ts?: unknown; thread_ts?: unknown } | undefined;
  const action = (Array.isArray(payload.actions) ? payload.actions[0] : undefined) as BlockAction | undefined;
  const choiceId = text(action?.type === 'static_select' ? action.selected_option?.value : action?.value);
  const userId = text(user?.id);
  if (!channel || !userId || !choiceId) return [];
  const eventId = text(payload.trigger_id) ?? `${channel}:${text(action?.action_ts) ?? ''}:${userId}`;
  const threadTs = text(message?.thread_ts) ?? text(message?.ts);
  return [
    {
      eventId: `action:${eventId}`.slice(0, 256),
      address: slackAddress(channel, threadTs),
      input: { kind: 'choice', choiceId },
      userData: known(userId, text(user?.team_id) ?? text((payload.team as { id?: unknown } | undefined)?.id)),
    },
  ];
}
