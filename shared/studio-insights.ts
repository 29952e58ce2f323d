import { z } from 'zod';
import type { ReadonlyDeep } from './studio-versions.ts';

/**
 * What the studio's insights API answers (server/studio-server/http/insights-routes.ts), as zod
 * schemas: the server checks its answers against them in test and development, the OpenAPI
 * document describes them from them (an `id` is the component's name there), and the server
 * (ports/insights.ts, server/studio-server/insights/) and the studio's Insights screen use the
 * types inferred from them. The web app imports the types only. The routes are in studio-api.ts.
 */

const count = z.int().min(0);
const epochMs = z.int().meta({ description: 'Epoch milliseconds.' });
const day = z.string().meta({ format: 'date' });
/** Data the studio shows as it is: the user's declared fields, a message as the channel sent it. */
const anyObject = z.record(z.string(), z.unknown());

/** A page event, trigger or timer of a conversation. */
const conversationEvent = z.strictObject({
  at: epochMs,
  kind: z.enum(['pageEvent', 'trigger', 'timer']),
  name: z.string(),
});
export type ConversationEvent = ReadonlyDeep<z.infer<typeof conversationEvent>>;

/** One conversation as the search and the transcript view see it. */
const conversationSummary = z
  .strictObject({
    userId: z.string(),
    startedAt: epochMs,
    lastAt: epochMs,
    channel: z.string(),
    version: z.string().meta({ description: 'The version in service when the conversation started.' }),
    lastVersion: z.string().meta({ description: 'The version in service at its last turn.' }),
    steps: z
      .array(z.string())
      .meta({ description: '`dialogId/stepId` of every step reached, in the order first reached.' }),
    lastStep: z.string().nullable().meta({
      description: '`dialogId/stepId` of the last step reached: where the conversation stopped, once it has.',
    }),
    integrationError: z
      .boolean()
      .meta({ description: 'An integration call of the conversation failed (an error status or no answer).' }),
    messages: count,
    text: z.string().meta({ description: "The user's words in the conversation, joined, at most 1000 characters." }),
    userData: anyObject.meta({ description: "The user's data (declared fields) as of the last turn." }),
    events: z.array(conversationEvent).meta({
      description: 'Page events, triggers and timers of the conversation, oldest first, at most SUMMARY_EVENTS.',
    }),
  })
  .meta({ id: 'ConversationSummary' });
export type ConversationSummary = ReadonlyDeep<z.infer<typeof conversationSummary>>;

/** The range a report covers: UTC days, YYYY-MM-DD, both inclusive. */
const reportRange = { from: day, to: day };
export type ReportRange = ReadonlyDeep<z.infer<z.ZodObject<typeof reportRange>>>;

const dailyFigures = z.strictObject({
  date: day.meta({ description: 'The UTC day, YYYY-MM-DD.' }),
  conversations: count,
  activeUsers: count,
  messagesUser: count,
  messagesBot: count,
});
export type DailyFigures = ReadonlyDeep<z.infer<typeof dailyFigures>>;

const textCount = z.strictObject({ text: z.string(), count });

/** One channel's share of the range: conversations started on it and their messages. */
const channelFigures = z.strictObject({
  channel: z
    .string()
    .meta({ description: "The channel's id (`webchat`, `telegram`, `twilio-sms`, a REST channel's name, …)." }),
  conversations: count,
  messagesUser: count,
  messagesBot: count,
});
export type ChannelFigures = ReadonlyDeep<z.infer<typeof channelFigures>>;

/** The dashboard's figures, as read from the counters. */
const dashboardFigures = {
  daily: z.array(dailyFigures),
  totals: z.strictObject({ conversations: count, messagesUser: count, messagesBot: count }),
  channels: z.array(channelFigures).meta({
    description:
      'Per channel, most conversations first: a conversation and all its messages count under the channel it started on. Counts kept before channels were counted are in the totals, under no channel.',
  }),
  dialogs: z.array(z.strictObject({ dialogId: z.string(), started: count, completed: count })).meta({
    description:
      'Conversations that entered each dialog, and those whose run in it completed (an end step, past its last step, or its own jump onward).',
  }),
  unprocessed: z.array(textCount),
  faq: z.strictObject({ answered: count, missed: count, misses: z.array(textCount) }),
  integrations: z
    .array(z.strictObject({ status: z.string(), calls: count, p50Ms: z.number(), p95Ms: z.number() }))
    .meta({
      description:
        'By status class (2xx … 5xx, `failed` for no answer), latency percentiles from the buckets (within about 12 %).',
    }),
  urlClicks: z.array(z.strictObject({ domain: z.string(), clicks: count })),
  sent: z.strictObject({ emails: count, sms: count }),
};
export type DashboardFigures = ReadonlyDeep<z.infer<z.ZodObject<typeof dashboardFigures>>>;

/** GET /studio/api/insights/dashboard. */
export const dashboard = z
  .strictObject({
    ...reportRange,
    version: z.string().nullable().meta({ description: 'The version asked for; null for every version.' }),
    channel: z.string().nullable().meta({ description: 'The channel asked for; null for every channel.' }),
    ...dashboardFigures,
  })
  .meta({ id: 'InsightsDashboard' });
export type Dashboard = ReadonlyDeep<z.infer<typeof dashboard>>;

const stepFigures = z.strictObject({
  dialogId: z.string(),
  stepId: z.string(),
  reached: count.meta({ description: 'Conversations that reached the step (once each).' }),
  stopped: count.meta({
    description: 'Conversations whose last step it was and that are over (no turn within the window since).',
  }),
});
export type StepFigures = ReadonlyDeep<z.infer<typeof stepFigures>>;

/** Reach and stops per step, as read from the counters. */
const dropOffFigures = {
  steps: z.array(stepFigures),
  open: count.meta({
    description: 'Conversations still going (a turn within the window): not counted as stopped anywhere yet.',
  }),
};
export type DropOffFigures = ReadonlyDeep<z.infer<z.ZodObject<typeof dropOffFigures>>>;

/** GET /studio/api/insights/drop-off. */
export const dropOff = z
  .strictObject({
    ...reportRange,
    version: z.string(),
    channel: z
      .string()
      .nullable()
      .meta({ description: 'The channel asked for (conversations started on it); null for every channel.' }),
    windowMs: count.meta({ description: 'INSIGHTS_WINDOW: a conversation with no turn for this long has stopped.' }),
    ...dropOffFigures,
  })
  .meta({ id: 'InsightsDropOff' });
export type DropOff = ReadonlyDeep<z.infer<typeof dropOff>>;

/** GET /studio/api/insights/conversations: a page of the search, newest first. */
export const conversationSearchPage = z
  .strictObject({
    ...reportRange,
    conversations: z.array(conversationSummary),
    nextCursor: z.string().nullable(),
    searchedBackTo: epochMs.optional().meta({
      description:
        'The search stopped at its budget (INSIGHTS_SEARCH_BUDGET conversations read): it read every conversation that started after this time. nextCursor carries on from there.',
    }),
    searchedConversations: count
      .optional()
      .meta({ description: 'With searchedBackTo: how many conversations the search read before it stopped.' }),
  })
  .meta({ id: 'ConversationPage' });
export type ConversationSearchPage = ReadonlyDeep<z.infer<typeof conversationSearchPage>>;

/** An integration call as the integration log keeps it (secrets redacted). */
const integrationCallView = z
  .strictObject({
    at: epochMs,
    method: z.unknown(),
    url: z.unknown(),
    requestHeaders: z.unknown(),
    requestBody: z.unknown(),
    responseStatus: z.unknown(),
    responseBody: z.unknown(),
    durationMs: z.unknown(),
    error: z.unknown().optional(),
  })
  .meta({ description: 'As the integrationLog export holds it (secrets redacted).' });
export type IntegrationCallView = ReadonlyDeep<z.infer<typeof integrationCallView>>;

const transcriptMessage = z.strictObject({
  seq: count,
  at: epochMs,
  from: z.enum(['user', 'bot']),
  channel: z.string().meta({
    description:
      "The channel it went through: that of the conversation it belongs to (the channel that conversation started on), or the user's for a message of no conversation insights kept.",
  }),
  text: z.string().nullable().meta({
    description: "What a person reads of it (a text's words, a button's label); null for what has none.",
  }),
  message: anyObject,
  dialogId: z.string().optional().meta({
    description: 'The step that said it (bot) or that it answered (user); absent when there was none.',
  }),
  stepId: z.string().optional(),
  integrationCalls: z.array(integrationCallView),
});
export type TranscriptMessage = ReadonlyDeep<z.infer<typeof transcriptMessage>>;

/** GET /studio/api/insights/users/{userId}: a page of one user's transcript. */
export const transcript = z
  .strictObject({
    userId: z.string(),
    channel: z.string(),
    userData: anyObject,
    conversations: z.array(conversationSummary),
    messages: z.array(transcriptMessage),
    events: z.array(conversationEvent).meta({
      description:
        "The page events, triggers and timers of the user's conversations that happened while this page's messages did (from the first message on, up to the next page's first; those before the first message on the first page), oldest first: the studio places each among the messages.",
    }),
    nextAfterSeq: z
      .int()
      .nullable()
      .meta({ description: 'Pass as `afterSeq` for the next page; null when this was the last.' }),
  })
  .meta({ id: 'UserTranscript' });
export type Transcript = ReadonlyDeep<z.infer<typeof transcript>>;

/** DELETE /studio/api/insights/users/{userId}: what the erasure removed. */
export const userErased = z.strictObject({
  userId: z.string(),
  erased: z.strictObject({
    user: count.max(1).meta({
      description: '1 when the user row was removed; 0 when there was none (already erased, or never seen).',
    }),
    transcript: count.meta({ description: 'Messages removed.' }),
    logs: z
      .record(z.string(), count)
      .meta({ description: 'Log rows removed, by export name (userDataSnapshot included); every kind is listed.' }),
    jobs: count.meta({
      description: 'Durable jobs removed: timers, queued triggers, integration calls, channel callbacks.',
    }),
  }),
});
export type UserErased = ReadonlyDeep<z.infer<typeof userErased>>;
