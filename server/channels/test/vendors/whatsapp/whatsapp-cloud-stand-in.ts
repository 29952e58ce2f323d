/**
 * A stand-in for the WhatsApp Cloud API's send endpoint (`POST /{Version}/{Phone-Number-ID}/messages`),
 * checked against Meta's published OpenAPI document (whatsapp-cloud-messages.reference.json, a cut of
 * facebook/openapi): path, bearer token, headers and body. It answers with the document's example
 * response and error shapes, keeps a log, and can be told to fail the next sends.
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
import reference from './whatsapp-cloud-messages.reference.json' with { type: 'json' };

const sendPath = '/{Version}/{Phone-Number-ID}/messages';
const operationPointer = `/paths/${pointerSegment(sendPath)}/post`;
const validator = new ReferenceValidator(reference as unknown as Record<string, unknown>);
const messageKinds = reference.components.schemas.Message.discriminator.mapping as Record<string, string>;
const headerSchemas = reference.components.parameters;

/**
 * What a test can make the next accepted send meet instead of success:
 * - `rate-limit`: HTTP 429 with the document's 429 example (Graph code 4, `is_transient: true`);
 * - `server-error`: HTTP 500 with the document's 500 example (transient);
 * - `expired-token`: HTTP 401 with the document's 401 example (Graph code 190);
 * - `undeliverable`: HTTP 400, Graph code 131026 (Meta's code for a number that cannot receive the
 *   message, e.g. one that blocked the business), not transient;
 * - `outside-window`: the send is accepted (200, as the Cloud API does) and the message then fails:
 *   a `failed` status with code 131047 (more than 24 hours since the user's last message) waits in
 *   `statusWebhooks()`. That late failure is why a connector must check the window before it sends.
 */
export type WhatsAppFailure = 'rate-limit' | 'server-error' | 'expired-token' | 'undeliverable' | 'outside-window';

/** One message the stand-in accepted, as the user would receive it. */
export interface WhatsAppSentMessage {
  readonly id: string;
  readonly to: string;
  readonly type: string;
  readonly body: Record<string, unknown>;
}

export interface WhatsAppStatusUpdate {
  readonly id: string;
  readonly recipient_id: string;
  readonly status: 'sent' | 'delivered' | 'read' | 'failed';
  readonly timestamp: string;
  readonly errors?: readonly { code: number; title: string; message: string; error_data: { details: string } }[];
}

export interface WhatsAppCloudStandIn extends RunningStandIn<WhatsAppSentMessage> {
  /** The Graph base URL a connector is configured with in tests (instead of https://graph.facebook.com). */
  readonly graphUrl: string;
  failNext(kind: WhatsAppFailure, times?: number): void;
  /** Status updates the stand-in owes the connector's webhook (the `outside-window` failures), oldest first. */
  statusWebhooks(): WhatsAppStatusUpdate[];
}

export interface WhatsAppCloudStandInOptions {
  readonly accessToken: string;
  readonly phoneNumberId: string;
  /** The Graph version in the path; the reference describes v23.0. */
  readonly apiVersion?: string;
}

function graphError(status: number, error: Record<string, unknown>): StandInAnswer {
  return { status, body: { error: { ...error, fbtrace_id: `A${randomBytes(10).toString('base64url')}` } } };
}

function example(status: '400' | '401' | '429' | '500'): StandInAnswer {
  const { error } = reference.errorExamples[status].value as { error: Record<string, unknown> };
  return graphError(Number(status), error);
}

function invalidParameter(problems: readonly string[]): StandInAnswer {
  return graphError(400, {
    message: `(#100) Invalid parameter: ${problems.join('; ')}`,
    type: 'OAuthException',
    code: 100,
  });
}

/**
 * Rules the document states in prose (its field descriptions) rather than in schema keywords, plus the
 * Cloud API's documented cap of 10 rows across a list's sections.
 */
function proseRules(message: Record<string, unknown>): string[] {
  if (message.type === 'template') return templateRules(message);
  const interactive = message.interactive as { type?: string; action?: Record<string, unknown> } | undefined;
  const action = interactive?.action;
  if (message.type !== 'interactive' || !action) return [];
  const problems: string[] = [];
  const unique = (values: string[], what: string) => {
    if (new Set(values).size !== values.length) problems.push(`${what} must be unique`);
  };
  if (Array.isArray(action.buttons)) {
    const replies = (action.buttons as { reply?: { id?: string; title?: string } }[]).map(
      (button) => button.reply ?? {},
    );
    replies.forEach((reply, index) => {
      if (typeof reply.title === 'string' && reply.title.trim() === '')
        problems.push(`/interactive/action/buttons/${index}/reply/title cannot be empty`);
      if (typeof reply.id === 'string' && reply.id.trim() !== reply.id)
        problems.push(`/interactive/action/buttons/${index}/reply/id has leading or trailing spaces`);
    });
    unique(
      replies.map((reply) => String(reply.title)),
      'reply button titles',
    );
    unique(
      replies.map((reply) => String(reply.id)),
      'reply button ids',
    );
  }
  if (Array.isArray(action.sections)) {
    const sections = action.sections as { title?: string; rows?: { id?: string; title?: string }[] }[];
    const rows = sections.flatMap((section) => section.rows ?? []);
    if (typeof action.button === 'string' && action.button.trim() === '')
      problems.push('/interactive/action/button cannot be empty');
    if (rows.length > 10) problems.push(`a list has at most 10 rows across its sections (this one has ${rows.length})`);
    if (sections.length > 1 && sections.some((section) => !section.title))
      problems.push('each section needs a title when a list has more than one');
    unique(
      rows.map((row) => String(row.id)),
      'list row ids',
    );
  }
  return problems;
}

/**
 * A template's text parameters, as Meta's error codes page states: not empty (131008, a required
 * parameter is missing), and without a line break, a tab or more than four spaces in a row (132018).
 */
function templateRules(message: Record<string, unknown>): string[] {
  const components = (message.template as { components?: { parameters?: { type?: string; text?: unknown }[] }[] })
    ?.components;
  return (components ?? []).flatMap((component, c) =>
    (component.parameters ?? []).flatMap((parameter, p) => {
      if (parameter.type !== 'text') return [];
      const where = `/template/components/${c}/parameters/${p}/text`;
      if (typeof parameter.text !== 'string' || parameter.text.trim() === '') return [`${where} is missing (131008)`];
      return /[\n\t]| {5}/.test(parameter.text)
        ? [`${where} holds a line break, a tab or more than four spaces in a row (132018)`]
        : [];
    }),
  );
}

function checkHeaders(request: StandInRequest): string[] {
  const problems: string[] = [];
  for (const [key, parameter] of Object.entries(headerSchemas)) {
    const value = request.headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) problems.push(`the ${parameter.name} header is required`);
      continue;
    }
    const pointer = `/components/parameters/${key}/schema`;
    // The document's Content-Type enum lists bare media types; a charset parameter is not part of the type.
    const checked = parameter.name === 'Content-Type' ? mediaType(value) : value;
    for (const problem of validator.check(pointer, checked).problems)
      problems.push(`the ${parameter.name} header: ${problem.replace('the value ', '')}`);
  }
  return problems;
}

/**
 * Every rule of the reference a message body breaks (empty: the Cloud API would take it). The
 * discriminator names the one schema that applies, so a refusal lists that schema's rules only.
 */
export function whatsAppMessageProblems(message: Record<string, unknown>): string[] {
  const kind = typeof message?.type === 'string' ? messageKinds[message.type] : undefined;
  const schemaPointer = kind ? kind.slice(1) : `${operationPointer}/requestBody/content/application~1json/schema`;
  return [...validator.check(schemaPointer, message).problems, ...proseRules(message)];
}

export async function startWhatsAppCloudStandIn(options: WhatsAppCloudStandInOptions): Promise<WhatsAppCloudStandIn> {
  const apiVersion = options.apiVersion ?? 'v23.0';
  const failures = new FailureScript<WhatsAppFailure>();
  const owedStatuses: WhatsAppStatusUpdate[] = [];
  const expectedPath = `/${apiVersion}/${options.phoneNumberId}/messages`;

  const decide = (request: StandInRequest): StandInVerdict<WhatsAppSentMessage> => {
    const refuse = (problems: readonly string[], answer: StandInAnswer): StandInVerdict<WhatsAppSentMessage> => ({
      kind: 'refused',
      problems,
      answer,
    });
    if (request.method !== 'POST' || request.path !== expectedPath) {
      const problem = `${request.method} ${request.path} is not ${`POST ${expectedPath}`}`;
      return refuse(
        [problem],
        graphError(400, {
          message: `Unsupported ${request.method.toLowerCase()} request. ${problem}.`,
          type: 'GraphMethodException',
          code: 100,
          error_subcode: 33,
        }),
      );
    }
    const headerProblems = checkHeaders(request);
    if (request.headers.authorization === undefined)
      return refuse(
        headerProblems,
        graphError(401, {
          message: 'An access token is required to request this resource.',
          type: 'OAuthException',
          code: 104,
        }),
      );
    if (request.headers.authorization !== `Bearer ${options.accessToken}`)
      return refuse(['the bearer token is not the configured access token'], example('401'));
    if (headerProblems.length > 0) return refuse(headerProblems, invalidParameter(headerProblems));

    let message: Record<string, unknown>;
    try {
      message = JSON.parse(request.rawBody.toString('utf8')) as Record<string, unknown>;
    } catch {
      return refuse(
        ['the body is not JSON'],
        graphError(400, { message: 'Invalid JSON in request body', type: 'OAuthException', code: 100 }),
      );
    }
    const problems = whatsAppMessageProblems(message);
    if (problems.length > 0) return refuse(problems, invalidParameter(problems));

    const failure = failures.take();
    if (failure === 'rate-limit') return refuse(['told to answer a rate limit'], example('429'));
    if (failure === 'server-error') return refuse(['told to answer a server error'], example('500'));
    if (failure === 'expired-token') return refuse(['told to answer an expired token'], example('401'));
    if (failure === 'undeliverable')
      return refuse(
        ['told to answer undeliverable'],
        graphError(400, {
          message: '(#131026) Message undeliverable',
          type: 'OAuthException',
          code: 131026,
          is_transient: false,
        }),
      );

    const to = String(message.to);
    const id = `wamid.${randomBytes(24).toString('base64url')}`;
    if (failure === 'outside-window') {
      owedStatuses.push({
        id,
        recipient_id: to,
        status: 'failed',
        timestamp: String(Math.floor(Date.now() / 1000)),
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            message: 'Re-engagement message',
            error_data: {
              details:
                'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
            },
          },
        ],
      });
    }
    const { value } =
      reference.paths[sendPath].post.responses['200'].content['application/json'].examples['Example response'];
    const body = { ...value, contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }], messages: [{ id }] };
    return {
      kind: 'accepted',
      accepted: { id, to, type: String(message.type), body: message },
      answer: { status: 200, body },
    };
  };

  const running = await startStandIn(decide);
  return {
    ...running,
    graphUrl: running.url,
    failNext: (kind, times) => failures.failNext(kind, times),
    statusWebhooks: () => owedStatuses.splice(0),
  };
}
