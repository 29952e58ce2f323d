import { z } from 'zod';
import type { InboundMessage } from '../connector/connector.ts';

const account = z.looseObject({
  id: z.string().max(512),
  name: z.string().max(512).optional(),
  aadObjectId: z.string().max(128).optional(),
});

/**
 * An activity the Bot Framework posts to the bot (the Activity protocol; the fields this connector
 * reads). Others pass through unread: the protocol grows, and an unknown field is no reason to refuse.
 */
export const incomingActivitySchema = z.looseObject({
  type: z.string().max(64),
  id: z.string().max(256).optional(),
  serviceUrl: z.string().max(2048),
  channelId: z.string().max(64).optional(),
  from: account.optional(),
  recipient: account.optional(),
  conversation: z.looseObject({
    id: z.string().max(512),
    tenantId: z.string().max(128).optional(),
    conversationType: z.string().max(64).optional(),
  }),
  text: z.string().optional(),
  value: z.unknown().optional(),
  membersAdded: z.array(account).max(1000).optional(),
  channelData: z
    .looseObject({
      tenant: z
        .object({ id: z.string().max(128) })
        .partial()
        .optional(),
    })
    .optional(),
});
export type IncomingActivity = z.infer<typeof incomingActivitySchema>;

/** The user facts a Teams user's record keeps: where their conversation lives is what a proactive message needs. */
export const TEAMS_FACTS = {
  serviceUrl: 'teamsServiceUrl',
  name: 'teamsName',
  tenantId: 'teamsTenantId',
  aadObjectId: 'teamsAadObjectId',
} as const;

/** A pressed card button carries `{ choice: "<seq>.<index>" }` as its value (a messageBack action). */
const choiceValue = z.object({ choice: z.string().regex(/^\d{1,12}\.\d{1,4}$/) });

/**
 * An activity → the turn it needs: a message (typed, or a pressed card button), or the bot added to
 * a personal chat (it opens the conversation, and from then on the bot may write first). Typing
 * indicators, reactions, edits and the rest need no turn.
 */
export function toInbound(activity: IncomingActivity): InboundMessage[] {
  if (!activity.id) return [];
  const base = { eventId: activity.id, address: activity.conversation.id, userData: facts(activity) };
  if (activity.type === 'message') {
    const pressed = choiceValue.safeParse(activity.value);
    if (pressed.success) return [{ ...base, input: { kind: 'choice', choiceId: pressed.data.choice } }];
    // In a team's channel the bot is @mentioned: the mention's markup is not what the user said.
    const text = (activity.text ?? '').replace(/<at>[^<]*<\/at>/g, '').trim();
    if (text === '') return [];
    return [{ ...base, input: { kind: 'text', text: text.slice(0, 4096) } }];
  }
  if (activity.type === 'conversationUpdate') {
    const botAdded =
      activity.recipient && activity.membersAdded?.some((member) => member.id === activity.recipient!.id);
    const personal = (activity.conversation.conversationType ?? 'personal') === 'personal';
    if (botAdded && personal) return [{ ...base, input: { kind: 'open' } }];
  }
  return [];
}

function facts(activity: IncomingActivity): Record<string, string> {
  const data: Record<string, string> = { [TEAMS_FACTS.serviceUrl]: activity.serviceUrl };
  const tenant = activity.conversation.tenantId ?? activity.channelData?.tenant?.id;
  if (tenant) data[TEAMS_FACTS.tenantId] = tenant;
  // In a conversationUpdate the sender may be the bot's installer or the service; only a message's sender is the user.
  if (activity.type === 'message' && activity.from?.name) data[TEAMS_FACTS.name] = activity.from.name;
  if (activity.type === 'message' && activity.from?.aadObjectId)
    data[TEAMS_FACTS.aadObjectId] = activity.from.aadObjectId;
  return data;
}
