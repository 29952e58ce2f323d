import type { WebhookRequest } from '../../ports/webhook-request.ts';
import { SendFailure, type Connector } from '../connector/connector.ts';
import type { SlackCall } from './slack-api.ts';
import { SLACK_CAPABILITIES, slackMessage, withoutImage } from './slack-blocks.ts';
import { eventMessages, interactionMessages, slackTarget } from './slack-events.ts';
import { verifySlackSignature } from './slack-signature.ts';

/** The channel's name: the users' channelId and the webhook's path (/api/webhooks/slack). */
export const SLACK = 'slack';

export interface SlackConnectorOptions {
  readonly call: SlackCall;
  readonly signingSecret: string;
  readonly token: string;
  readonly now: () => number;
}

/**
 * Slack (Events API in, Web API out) as a connector. One Request URL takes both what Slack posts:
 * events as JSON (direct messages to the bot, mentions of it in channels; the `url_verification`
 * challenge echoed) and button clicks as a form (interactivity). Each request's v0 signature is
 * checked over the raw bytes, with at most five minutes of clock skew. A retry (`X-Slack-Retry-Num`)
 * repeats its `event_id`, which the core stores once. Answers go out with chat.postMessage as Block
 * Kit, always with a `text` fallback; in a channel, into the mention's thread.
 */
export function slackConnector(options: SlackConnectorOptions): Connector {
  return {
    name: SLACK,
    capabilities: SLACK_CAPABILITIES,
    // An event is a few KB; a click carries the whole message it was on (50 blocks of up to 3000 characters).
    maxBodyBytes: 1024 * 1024,
    secrets: [options.token, options.signingSecret],
    bodyFormat: 'json-or-form',
    verify(request: WebhookRequest, raw: Buffer) {
      verifySlackSignature(request, raw, options.signingSecret, options.now());
    },
    challenge(body) {
      const asked = body as { type?: unknown; challenge?: unknown } | null;
      if (body instanceof URLSearchParams || asked?.type !== 'url_verification') return undefined;
      return {
        status: 200,
        body: typeof asked.challenge === 'string' ? asked.challenge.slice(0, 512) : '',
        text: true,
      };
    },
    parse(body) {
      if (body instanceof URLSearchParams) return interactionMessages(body);
      return typeof body === 'object' && body !== null ? eventMessages(body as Record<string, unknown>) : [];
    },
    async send(address, part) {
      const target = slackTarget(address);
      const post = (shown: typeof part) =>
        options.call('chat.postMessage', {
          channel: target.channel,
          ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
          ...slackMessage(shown),
          unfurl_links: false,
        });
      try {
        await post(part);
      } catch (error) {
        // Slack fetches an image itself and refuses the whole message when it cannot: the rest still goes, the image as its link.
        if (!(error instanceof SendFailure && error.vendorCode === 'invalid_blocks' && part.kind === 'image'))
          throw error;
        await post(withoutImage(part));
      }
    },
  };
}
