import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext } from '../step-contract/step-type.ts';
import { baseUrl, failure, secretName, under } from './schema-parts.ts';

/** chat.postMessage errors that mean the token is wrong or lacks a right (Slack answers them with HTTP 200 and ok: false). */
const AUTH_ERRORS = new Set([
  'not_authed',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'not_allowed_token_type',
  'ekm_access_denied',
  'access_denied',
]);
/** Errors on Slack's side, worth another attempt. */
const TRANSIENT_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'ratelimited',
]);

interface SlackParams {
  webhookUrlSecret?: string;
  tokenSecret?: string;
  channel?: string;
  text: string;
  blocks?: unknown[];
  threadTs?: string;
  apiBaseUrl: string;
}

/** Slack: post a message with an incoming webhook, or with a bot token through chat.postMessage. */
export const slackPostMessage = defineStepType({
  name: 'slackPostMessage',
  level: 'action',
  description:
    'Posts a message to Slack: through an incoming webhook (webhookUrlSecret), or with a bot token (tokenSecret) to a channel; the result names the message, for replies in its thread.',
  service: 'optional',
  secrets: ['webhookUrlSecret', 'tokenSecret'],
  fixed: ['apiBaseUrl'],
  params: {
    type: 'object',
    properties: {
      webhookUrlSecret: secretName(
        'The secret holding an incoming webhook URL (https://hooks.slack.com/services/…), which posts to the channel chosen when the webhook was made.',
      ),
      tokenSecret: secretName(
        'Instead of a webhook: the secret holding a bot token (xoxb-…) with the chat:write scope.',
      ),
      channel: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description:
          'With tokenSecret: the channel to post to, by id (C0123ABCDEF) or name (#support); the bot must be in it.',
      },
      text: {
        type: 'string',
        minLength: 1,
        maxLength: 40000,
        description:
          "The message, in Slack's formatting (*bold*, _italic_); {{variables}} are filled in. Also the notification's text when blocks are given.",
      },
      blocks: {
        type: 'array',
        maxItems: 50,
        items: { type: 'object' },
        description: 'Optional Block Kit blocks for a richer layout.',
      },
      threadTs: {
        type: 'string',
        pattern: '^\\d+\\.\\d+$',
        description: 'With tokenSecret: the timestamp id (ts) of a message to reply to in its thread.',
      },
      apiBaseUrl: baseUrl("The Slack Web API's address (for a proxy or a test double).", 'https://slack.com/api/'),
    },
    oneOf: [{ required: ['webhookUrlSecret'] }, { required: ['tokenSecret', 'channel'] }],
    required: ['text'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      channel: {
        type: ['string', 'null'],
        description: 'The channel id the message went to (null through a webhook, which does not say).',
      },
      ts: {
        type: ['string', 'null'],
        description: "The message's timestamp id, for replies in its thread (null through a webhook).",
      },
    },
    required: ['channel', 'ts'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as SlackParams;
    const message = { text: params.text, ...(params.blocks ? { blocks: params.blocks } : {}) };
    const webhook = ctx.secret('webhookUrlSecret');
    if (webhook !== undefined) {
      // Answers 200 "ok" as plain text; failures are 4xx/5xx with a short code in the body.
      await ctx.request({
        method: 'POST',
        url: webhook,
        headers: { 'content-type': 'application/json' },
        json: { ...message, ...(params.threadTs ? { thread_ts: params.threadTs } : {}) },
      });
      return { channel: null, ts: null };
    }
    const token = ctx.secret('tokenSecret')!;
    const response = await ctx.request({
      method: 'POST',
      url: under(params.apiBaseUrl, 'chat.postMessage'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
      json: { channel: params.channel, ...message, ...(params.threadTs ? { thread_ts: params.threadTs } : {}) },
    });
    const body = response.body as { ok?: boolean; error?: string; channel?: string; ts?: string } | null;
    if (!body || typeof body !== 'object')
      throw failure('Slack answered chat.postMessage with something that is not its JSON.', 'invalid_body');
    if (body.ok !== true) {
      const code = String(body.error ?? 'unknown_error');
      if (AUTH_ERRORS.has(code))
        throw failure(`Slack refused the bot token (${code}); check the token and its chat:write scope.`, 'auth');
      if (TRANSIENT_ERRORS.has(code))
        throw failure(
          `Slack could not post the message just now (${code}).`,
          'status',
          code === 'ratelimited' ? 429 : 503,
        );
      throw failure(`Slack refused the message (${code}); check the channel and the message.`, 'invalid_params');
    }
    return { channel: body.channel ?? params.channel ?? null, ts: body.ts ?? null };
  },
});
