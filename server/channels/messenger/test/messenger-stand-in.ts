/**
 * A stand-in for Messenger's Send API (`POST /{version}/me/messages`). Meta publishes no
 * machine-readable reference for the Messenger Platform, so the request and response shapes, limits
 * and errors are written down here from the Graph API reference pages, each rule with its source:
 *
 * - Send API: https://developers.facebook.com/docs/messenger-platform/reference/send-api/
 *   `recipient.id` (the page-scoped id), `messaging_type` RESPONSE | UPDATE | MESSAGE_TAG (required),
 *   `tag` only and always with MESSAGE_TAG, `message` with `text` (UTF-8, ≤ 2000 characters) or
 *   `attachment`, and optional `quick_replies`. Answer: `{ "recipient_id", "message_id" }`. The page
 *   access token is the `access_token` query parameter or, as for every Graph call, a bearer token.
 * - Quick replies: https://developers.facebook.com/docs/messenger-platform/send-messages/quick-replies
 *   at most 13; `content_type` text (title ≤ 20 characters, `payload` ≤ 1000, both required for text).
 * - Button template: https://developers.facebook.com/docs/messenger-platform/send-messages/template/button
 *   `text` ≤ 640 characters (UTF-8), 1 to 3 buttons.
 * - Generic template: https://developers.facebook.com/docs/messenger-platform/send-messages/template/generic
 *   (the reference: https://developers.facebook.com/docs/messenger-platform/reference/templates/generic)
 *   `elements` "Maximum of 10 elements", optional `sharable`; an element's `title` ≤ 80 (required),
 *   optional `subtitle` ≤ 80, `image_url`, `default_action` ("the same properties as URL button,
 *   except title") and `buttons` ("Maximum of 3 buttons per element"), and "At least one property must
 *   be set in addition to title" (Meta answers a title alone with #100 "Incomplete element data").
 * - Buttons: https://developers.facebook.com/docs/messenger-platform/reference/buttons/postback and
 *   …/buttons/url: `title` ≤ 20 characters; a postback's `payload` ≤ 1000; a web_url's `url`, and
 *   optional `webview_height_ratio` (compact, tall, full), `messenger_extensions`, `fallback_url`,
 *   `webview_share_button` (hide).
 * - Attachments: https://developers.facebook.com/docs/messenger-platform/send-messages#url
 *   `{ type: "image", payload: { url, is_reusable } }`.
 * - Message tags: https://developers.facebook.com/docs/messenger-platform/send-messages/message-tags
 *   CONFIRMED_EVENT_UPDATE, POST_PURCHASE_UPDATE, ACCOUNT_UPDATE, HUMAN_AGENT (the last only for a
 *   person answering, after Meta's approval: refused here, as for an app without it).
 * - Errors: https://developers.facebook.com/docs/messenger-platform/error-codes and
 *   https://developers.facebook.com/docs/graph-api/guides/error-handling — the error object
 *   `{ message, type, code, error_subcode, fbtrace_id }`; 100 invalid parameter, 190 invalid token,
 *   10 / 2018278 outside the allowed window, 551 / 1545041 the person isn't available, 200 / 1545041
 *   permission, 613 and 4 rate limits, 1200 temporary send failure, 2 / 1 service unavailable.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  FailureScript,
  startStandIn,
  type RunningStandIn,
  type StandInAnswer,
  type StandInRequest,
  type StandInVerdict,
} from '../../test/vendors/stand-in-server.ts';

/** Characters as Meta counts them for these limits: UTF-16 code units, as JavaScript does. */
const upTo = (max: number) => z.string().min(1).max(max);

const postback = z.strictObject({ type: z.literal('postback'), title: upTo(20), payload: upTo(1000) });
/** A URL button's properties but its title: a generic template element's `default_action` has them. */
const urlAction = {
  type: z.literal('web_url'),
  url: z.url({ protocol: /^https?$/ }),
  webview_height_ratio: z.enum(['compact', 'tall', 'full']).optional(),
  messenger_extensions: z.boolean().optional(),
  fallback_url: z.url({ protocol: /^https?$/ }).optional(),
  webview_share_button: z.literal('hide').optional(),
};
const webUrl = z.strictObject({ ...urlAction, title: upTo(20) });
const button = z.discriminatedUnion('type', [postback, webUrl]);

const buttonTemplate = z.strictObject({
  template_type: z.literal('button'),
  text: upTo(640),
  buttons: z.array(button).min(1).max(3),
});
const genericElement = z
  .strictObject({
    title: upTo(80),
    subtitle: upTo(80).optional(),
    image_url: z.url().optional(),
    default_action: z.strictObject(urlAction).optional(),
    buttons: z.array(button).min(1).max(3).optional(),
  })
  .refine(
    (element) => Object.keys(element).some((key) => key !== 'title'),
    'Incomplete element data: title and at least one other field (image url, subtitle or buttons) is required',
  );
const genericTemplate = z.strictObject({
  template_type: z.literal('generic'),
  elements: z.array(genericElement).min(1).max(10),
  sharable: z.boolean().optional(),
});
const attachment = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('image'),
    payload: z.strictObject({ url: z.url(), is_reusable: z.boolean().optional() }),
  }),
  z.strictObject({
    type: z.literal('template'),
    payload: z.discriminatedUnion('template_type', [buttonTemplate, genericTemplate]),
  }),
]);
const quickReply = z.strictObject({ content_type: z.literal('text'), title: upTo(20), payload: upTo(1000) });

const message = z
  .strictObject({
    text: upTo(2000).optional(),
    attachment: attachment.optional(),
    quick_replies: z.array(quickReply).min(1).max(13).optional(),
  })
  .refine((m) => (m.text === undefined) !== (m.attachment === undefined), 'message needs text or attachment, not both');

export const MESSENGER_TAGS = ['CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE', 'ACCOUNT_UPDATE', 'HUMAN_AGENT'];

const sendBody = z
  .strictObject({
    recipient: z.strictObject({ id: z.string().regex(/^\d{1,32}$/) }),
    messaging_type: z.enum(['RESPONSE', 'UPDATE', 'MESSAGE_TAG']),
    tag: z.enum(MESSENGER_TAGS).optional(),
    message,
  })
  .refine((body) => (body.messaging_type === 'MESSAGE_TAG') === (body.tag !== undefined), {
    message: 'tag goes with messaging_type MESSAGE_TAG, and only with it',
  });

/** Every rule of the Send API reference a body breaks (empty: Messenger would take it), one line each. */
export function messengerSendProblems(body: unknown): string[] {
  const parsed = sendBody.safeParse(body);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `/${issue.path.join('/')}: ${issue.message}`);
  // Prose rules: buttons in one template and quick replies in one message are told apart by their titles.
  const titled = (items: unknown) => (Array.isArray(items) ? items.map((item) => String(item?.title)) : []);
  const record = body as { message?: { quick_replies?: unknown; attachment?: { payload?: { buttons?: unknown } } } };
  for (const [what, titles] of [
    ['quick reply titles', titled(record?.message?.quick_replies)],
    ['button titles', titled(record?.message?.attachment?.payload?.buttons)],
  ] as const)
    if (new Set(titles).size !== titles.length) problems.push(`${what} must be unique`);
  if ((body as { tag?: unknown })?.tag === 'HUMAN_AGENT')
    problems.push('HUMAN_AGENT is for a person answering, and this app has no approval for it');
  return problems;
}

/**
 * What a test can make the next accepted send meet instead of success (codes from Meta's error pages):
 * `rate-limit` 613, `server-error` HTTP 500 code 2, `unavailable` 551 (the person isn't available),
 * `outside-window` 10 / 2018278, `no-permission` 200.
 */
export type MessengerFailure = 'rate-limit' | 'server-error' | 'unavailable' | 'outside-window' | 'no-permission';

const failures: Record<MessengerFailure, StandInAnswer> = {
  'rate-limit': graphError(400, 613, 'Calls to this api have exceeded the rate limit.', 'OAuthException'),
  'server-error': graphError(
    500,
    2,
    'An unexpected error has occurred. Please retry your request later.',
    'OAuthException',
    {
      is_transient: true,
    },
  ),
  unavailable: graphError(400, 551, "This person isn't available right now.", 'OAuthException', {
    error_subcode: 1545041,
  }),
  'outside-window': graphError(
    400,
    10,
    '(#10) This message is sent outside of allowed window. Learn more about the new policy here: https://developers.facebook.com/docs/messenger-platform/policy-overview',
    'OAuthException',
    { error_subcode: 2018278 },
  ),
  'no-permission': graphError(
    403,
    200,
    '(#200) The user hasn’t authorized the application to perform this action',
    'OAuthException',
  ),
};

function graphError(
  status: number,
  code: number,
  message: string,
  type: string,
  more: Record<string, unknown> = {},
): StandInAnswer {
  return {
    status,
    body: { error: { message, type, code, ...more, fbtrace_id: `A${randomBytes(10).toString('base64url')}` } },
  };
}

/** One message the stand-in accepted, as the person would receive it. */
export interface MessengerSentMessage {
  readonly id: string;
  readonly to: string;
  readonly messagingType: string;
  readonly tag?: string;
  readonly message: Record<string, unknown>;
}

export interface MessengerStandIn extends RunningStandIn<MessengerSentMessage> {
  /** The Graph base URL a connector is configured with in tests (instead of https://graph.facebook.com). */
  readonly graphUrl: string;
  failNext(kind: MessengerFailure, times?: number): void;
}

export async function startMessengerStandIn(options: {
  readonly pageAccessToken: string;
  readonly apiVersion?: string;
}): Promise<MessengerStandIn> {
  const expectedPath = `/${options.apiVersion ?? 'v23.0'}/me/messages`;
  const script = new FailureScript<MessengerFailure>();
  const decide = (request: StandInRequest): StandInVerdict<MessengerSentMessage> => {
    const refuse = (problems: readonly string[], answer: StandInAnswer): StandInVerdict<MessengerSentMessage> => ({
      kind: 'refused',
      problems,
      answer,
    });
    if (request.method !== 'POST' || request.path !== expectedPath) {
      const problem = `${request.method} ${request.path} is not POST ${expectedPath}`;
      return refuse([problem], graphError(400, 100, `Unsupported request. ${problem}.`, 'GraphMethodException'));
    }
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? request.query.get('access_token');
    if (!token)
      return refuse(
        ['no access token'],
        graphError(400, 104, 'An access token is required to request this resource.', 'OAuthException'),
      );
    if (token !== options.pageAccessToken)
      return refuse(
        ['the token is not the page access token'],
        graphError(400, 190, 'Invalid OAuth access token.', 'OAuthException'),
      );
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      return refuse(['the body is not JSON'], graphError(400, 100, 'Invalid JSON in request body', 'OAuthException'));
    }
    const problems = messengerSendProblems(body);
    if (problems.length > 0)
      return refuse(problems, graphError(400, 100, `(#100) ${problems.join('; ')}`, 'OAuthException'));
    const failure = script.take();
    if (failure) return refuse([`told to answer ${failure}`], failures[failure]);
    const sent = body as z.infer<typeof sendBody>;
    const id = `m_${randomBytes(24).toString('base64url')}`;
    return {
      kind: 'accepted',
      accepted: {
        id,
        to: sent.recipient.id,
        messagingType: sent.messaging_type,
        ...(sent.tag ? { tag: sent.tag } : {}),
        message: sent.message as Record<string, unknown>,
      },
      answer: { status: 200, body: { recipient_id: sent.recipient.id, message_id: id } },
    };
  };
  const running = await startStandIn(decide);
  return { ...running, graphUrl: running.url, failNext: (kind, times) => script.failNext(kind, times) };
}
