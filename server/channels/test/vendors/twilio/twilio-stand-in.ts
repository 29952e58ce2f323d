/**
 * A stand-in for Twilio's create-message endpoint (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`),
 * checked against Twilio's published OpenAPI document (twilio-messages.reference.json, a cut of
 * twilio/twilio-oai): path, Basic credentials, form encoding and every parameter, including the
 * document's `x-twilio.conditional` groups and the limits its descriptions state. It answers with the
 * document's example response and Twilio's error shape, keeps a log, and can be told to fail.
 */
import { randomBytes } from 'node:crypto';
import { ReferenceValidator, pointerSegment } from '../reference-validator.ts';
import {
  FailureScript,
  mediaType,
  startStandIn,
  type RunningStandIn,
  type StandInAnswer,
  type StandInRequest,
  type StandInVerdict,
} from '../stand-in-server.ts';
import { smsSegments } from './sms-segments.ts';
import reference from './twilio-messages.reference.json' with { type: 'json' };

const createPath = '/2010-04-01/Accounts/{AccountSid}/Messages.json';
const operation = reference.paths[createPath].post;
const requestPointer = `/paths/${pointerSegment(createPath)}/post/requestBody/content/application~1x-www-form-urlencoded/schema`;
const requestSchema = operation.requestBody.content['application/x-www-form-urlencoded'].schema;
const knownParameters = new Set(Object.keys(requestSchema.properties));
const arrayParameters = new Set(
  Object.entries(requestSchema.properties).flatMap(([name, schema]) =>
    'type' in schema && schema.type === 'array' ? [name] : [],
  ),
);
const conditionalGroups = operation['x-twilio'].conditional;

/** Twilio's own formats, as its documentation describes them. */
export const twilioFormats = {
  // E.164, or a channel address such as whatsapp:+14155552345; short codes and alphanumeric sender ids for From.
  'phone-number': /^(\+[1-9]\d{1,14}|[a-z]+:\+?[A-Za-z0-9@._-]+|\d{3,8}|[A-Za-z0-9 ]{1,11})$/,
  'date-time-rfc-2822': /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/,
  currency: /^[A-Z]{3}$/,
  'uri-map': /.*/,
} as const;

export const twilioValidator = new ReferenceValidator(reference as unknown as Record<string, unknown>, {
  coerceFormValues: true,
  formats: twilioFormats,
});

/**
 * What a test can make the next valid request meet instead of success (codes from Twilio's error
 * dictionary; the document publishes no error responses. A refusal for a schema rule without a code
 * of its own answers 20001, a generic code a connector must not depend on):
 * - `rate-limit`: HTTP 429, code 20429;
 * - `server-error`: HTTP 500, code 20500;
 * - `opted-out`: HTTP 400, code 21610 (the number texted STOP: a permanent refusal);
 * - `outside-window`: accepted (201), then a `failed` status with ErrorCode 63016 (WhatsApp's 24-hour
 *   window) is owed to the StatusCallback, as Twilio reports it.
 */
export type TwilioFailure = 'rate-limit' | 'server-error' | 'opted-out' | 'outside-window';

/** One message Twilio accepted, with the parameters the connector sent. */
export interface TwilioSentMessage {
  readonly sid: string;
  readonly to: string;
  readonly from: string | null;
  readonly body: string | null;
  readonly mediaUrls: readonly string[];
  readonly segments: number;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A status callback Twilio owes the connector: the URL the message named, and the form it would post. */
export interface TwilioOwedCallback {
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
}

export interface TwilioStandIn extends RunningStandIn<TwilioSentMessage> {
  /** The API base URL a connector is configured with in tests (instead of https://api.twilio.com). */
  readonly apiUrl: string;
  failNext(kind: TwilioFailure, times?: number): void;
  /** Status callbacks owed for accepted messages that named a StatusCallback, oldest first. */
  owedStatusCallbacks(): TwilioOwedCallback[];
}

export interface TwilioStandInOptions {
  readonly accountSid: string;
  readonly authToken: string;
}

/** Twilio's REST error body (the shape its official libraries parse: code, message, more_info, status). */
export function twilioError(status: number, code: number, message: string): StandInAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

function newSid(prefix: 'SM' | 'MM'): string {
  return prefix + randomBytes(16).toString('hex');
}

/** The form as Twilio reads it: a repeated name is a list; array parameters are always lists. */
function readForm(raw: string): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const before = form[name];
    form[name] =
      before === undefined
        ? arrayParameters.has(name)
          ? [value]
          : value
        : [...(Array.isArray(before) ? before : [before]), value];
  }
  return form;
}

function channelOf(address: string): string {
  return /^([a-z]+):/.exec(address)?.[1] ?? 'sms';
}

/** Rules the document states in its descriptions and its `x-twilio` extension rather than in schema keywords. */
function documentedRules(form: Record<string, unknown>): { code: number; problem: string }[] {
  const found: { code: number; problem: string }[] = [];
  if (form.To === undefined) found.push({ code: 21604, problem: "A 'To' phone number is required." });
  for (const group of conditionalGroups) {
    // The extension names parameters in snake case; the form uses their PascalCase names.
    const names = group.map((name) =>
      name
        .split('_')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(''),
    );
    if (!names.some((name) => form[name] !== undefined))
      found.push({ code: names.includes('Body') ? 21602 : 21603, problem: `One of ${names.join(', ')} is required.` });
  }
  if (typeof form.Body === 'string' && [...form.Body].length > 1600)
    found.push({
      code: 21617,
      problem: `The concatenated message body exceeds the 1600 character limit (${[...form.Body].length}).`,
    });
  if (Array.isArray(form.MediaUrl) && form.MediaUrl.length > 10)
    found.push({ code: 21623, problem: 'At most ten MediaUrl parameters per message.' });
  if (form.ContentVariables !== undefined) {
    if (form.ContentSid === undefined) found.push({ code: 21654, problem: 'ContentVariables needs ContentSid.' });
    try {
      const variables = JSON.parse(String(form.ContentVariables)) as unknown;
      if (variables === null || typeof variables !== 'object' || Array.isArray(variables))
        throw new Error('not an object');
    } catch {
      found.push({ code: 21656, problem: 'ContentVariables must be a JSON object.' });
    }
  }
  if (typeof form.To === 'string' && typeof form.From === 'string' && channelOf(form.To) !== channelOf(form.From)) {
    found.push({
      code: 21910,
      problem: `From (${channelOf(form.From)}) and To (${channelOf(form.To)}) must be on the same channel.`,
    });
  }
  return found;
}

/**
 * Every rule of the reference a create-message form breaks, with the code Twilio answers (none: Twilio
 * would take it). Coerces the form's values in place, as Twilio reads them.
 */
export function twilioFormProblems(form: Record<string, unknown>): { code: number; problems: string[] } | null {
  const unknown = Object.keys(form).filter((name) => !knownParameters.has(name));
  const rules = documentedRules(form);
  const schemaProblems = twilioValidator.check(requestPointer, form).problems;
  const problems = [
    ...unknown.map((name) => `${name} is not a parameter of this operation`),
    ...rules.map((rule) => rule.problem),
    ...schemaProblems,
  ];
  if (problems.length === 0) return null;
  return {
    code: rules[0]?.code ?? (schemaProblems.some((problem) => problem.startsWith('/To ')) ? 21211 : 20001),
    problems,
  };
}

export async function startTwilioStandIn(options: TwilioStandInOptions): Promise<TwilioStandIn> {
  const failures = new FailureScript<TwilioFailure>();
  const owed: TwilioOwedCallback[] = [];
  const expectedPath = `/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
  const expectedCredentials = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  const decide = (request: StandInRequest): StandInVerdict<TwilioSentMessage> => {
    const refuse = (problems: readonly string[], answer: StandInAnswer): StandInVerdict<TwilioSentMessage> => ({
      kind: 'refused',
      problems,
      answer,
    });
    const accountSid = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(request.path)?.[1];
    if (request.method !== 'POST' || accountSid === undefined) {
      return refuse(
        [`${request.method} ${request.path} is not POST ${expectedPath}`],
        twilioError(404, 20404, `The requested resource ${request.path} was not found`),
      );
    }
    const sidProblems = twilioValidator.check(
      `/paths/${pointerSegment(createPath)}/post/parameters/0/schema`,
      accountSid,
    ).problems;
    if (sidProblems.length > 0)
      return refuse(
        sidProblems.map((problem) => `AccountSid: ${problem}`),
        twilioError(404, 20404, `The requested resource ${request.path} was not found`),
      );
    if (request.headers.authorization !== expectedCredentials || request.path !== expectedPath) {
      return refuse(
        ['the Basic credentials are not the account SID and its auth token'],
        twilioError(401, 20003, 'Authenticate'),
      );
    }
    const contentType = mediaType(request.headers['content-type']);
    if (contentType !== 'application/x-www-form-urlencoded') {
      return refuse(
        [`the body is ${contentType || 'untyped'}, not application/x-www-form-urlencoded`],
        twilioError(400, 20001, 'The request body must be application/x-www-form-urlencoded.'),
      );
    }

    const coerced: Record<string, unknown> = readForm(request.rawBody.toString('utf8'));
    const refusal = twilioFormProblems(coerced);
    if (refusal) return refuse(refusal.problems, twilioError(400, refusal.code, refusal.problems.join(' ')));

    const failure = failures.take();
    if (failure === 'rate-limit')
      return refuse(['told to answer a rate limit'], twilioError(429, 20429, 'Too Many Requests'));
    if (failure === 'server-error')
      return refuse(['told to answer a server error'], twilioError(500, 20500, 'Internal Server Error'));
    if (failure === 'opted-out')
      return refuse(
        ['told the recipient opted out'],
        twilioError(400, 21610, 'Attempt to send to unsubscribed recipient'),
      );

    const to = String(coerced.To);
    const from = typeof coerced.From === 'string' ? coerced.From : null;
    const body = typeof coerced.Body === 'string' ? coerced.Body : null;
    const mediaUrls = (coerced.MediaUrl as string[] | undefined) ?? [];
    const segments = body === null || channelOf(to) !== 'sms' ? 1 : smsSegments(body).segments;
    const sid = newSid(mediaUrls.length > 0 ? 'MM' : 'SM');
    const now = rfc2822(new Date());
    const example = operation.responses['201'].content['application/json'].examples.create.value;
    const answer = {
      ...example,
      account_sid: options.accountSid,
      sid,
      to,
      from,
      body,
      num_media: String(mediaUrls.length),
      num_segments: String(segments),
      messaging_service_sid: (coerced.MessagingServiceSid as string | undefined) ?? null,
      date_created: now,
      date_updated: now,
      date_sent: null,
      status: 'queued',
      uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
      subresource_uris: { media: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}/Media.json` },
    };
    if (typeof coerced.StatusCallback === 'string') {
      const base = {
        AccountSid: options.accountSid,
        MessageSid: sid,
        SmsSid: sid,
        To: to,
        From: from ?? '',
        ApiVersion: '2010-04-01',
      };
      const statuses =
        failure === 'outside-window'
          ? [{ ...base, MessageStatus: 'failed', SmsStatus: 'failed', ErrorCode: '63016' }]
          : [
              { ...base, MessageStatus: 'sent', SmsStatus: 'sent' },
              { ...base, MessageStatus: 'delivered', SmsStatus: 'delivered' },
            ];
      for (const params of statuses) owed.push({ url: coerced.StatusCallback, params });
    }
    return {
      kind: 'accepted',
      accepted: { sid, to, from, body, mediaUrls, segments, params: coerced },
      answer: { status: 201, body: answer },
    };
  };

  const running = await startStandIn(decide);
  return {
    ...running,
    apiUrl: running.url,
    failNext: (kind, times) => failures.failNext(kind, times),
    owedStatusCallbacks: () => owed.splice(0),
  };
}
