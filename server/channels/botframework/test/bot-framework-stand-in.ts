import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** The published Connector API reference, as kept in reference/ (see its README). */
const reference = JSON.parse(readFileSync(new URL('./reference/connector-api.json', import.meta.url), 'utf8')) as {
  definitions: Record<string, { properties?: Record<string, { type?: string }> }>;
};
// The one departure (reference/README.md): a card action's value may be any JSON value (imBack's text, openUrl's address).
delete reference.definitions.CardAction!.properties!.value!.type;
const ajv = new Ajv({ strict: false, allErrors: false });
// ajv-formats is CommonJS: its function is the default export, or that export's own default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => void;
addFormats(ajv);
ajv.addSchema({ $id: 'connector-api', definitions: reference.definitions });
const validActivity = ajv.compile({ $ref: 'connector-api#/definitions/Activity' });
const validHeroCard = ajv.compile({ $ref: 'connector-api#/definitions/HeroCard' });
const validResourceResponse = ajv.compile({ $ref: 'connector-api#/definitions/ResourceResponse' });
const validErrorResponse = ajv.compile({ $ref: 'connector-api#/definitions/ErrorResponse' });

/** Teams' rules beyond the Swagger file (reference/README.md). */
const TEAMS_ACTIONS = new Set(['openUrl', 'messageBack', 'imBack', 'invoke', 'signin']);
const TEAMS_MAX_BYTES = 28 * 1024;
const TEAMS_MAX_BUTTONS = 6;
const TEAMS_MAX_SUGGESTED = 6;
const TEAMS_MAX_CAROUSEL = 10;

export const APP_ID = '8d3c2a4e-5b6f-4a1b-9c2d-3e4f5a6b7c8d';
export const APP_PASSWORD = 'stand-in-client-secret-~0123456789';
const ISSUER = 'https://api.botframework.com';

/** One Connector API call the stand-in received, with how it answered. */
export interface SeenActivity {
  readonly conversationId: string;
  readonly activity: Record<string, unknown>;
  readonly status: number;
  readonly problem?: string;
}

export interface BotFrameworkStandIn {
  /** The stand-in's base: the serviceUrl of the conversations it plays, and the origin of its token service and keys. */
  readonly url: string;
  readonly openIdUrl: string;
  readonly tokenUrl: string;
  readonly activities: SeenActivity[];
  /** How many times the keys and the tokens were asked for. */
  readonly counts: { keys: number; tokens: number };
  /** A token as the Bot Framework signs one for a request to the bot; `claims` overrides the usual ones. */
  sign(
    serviceUrl: string,
    claims?: Record<string, unknown>,
    options?: { readonly key?: 'current' | 'unpublished' },
  ): Promise<string>;
  /** A new signing key: published beside the old one, and used from now on. */
  rotate(): Promise<void>;
  /** Token requests from now on wait, unanswered, until `release` (a process can be killed with its send under way). */
  holdTokens(): void;
  /** How many token requests are waiting. */
  heldTokens(): number;
  /** Answers the waiting token requests (to a process still listening) and stops holding. */
  release(): void;
  /** The next `times` sends to a conversation are answered with `status` (and Retry-After when given). */
  throttle(conversationId: string, times: number, status: number, retryAfterS?: number): void;
  close(): Promise<void>;
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  // The Bot Framework's keys name the channels they sign for ("endorsements").
  return {
    kid,
    privateKey,
    jwk: {
      ...(await exportJWK(publicKey)),
      kid,
      use: 'sig',
      alg: 'RS256',
      endorsements: ['msteams', 'webchat'],
    } as JWK,
  };
}

/**
 * The Bot Framework on loopback: its OpenID configuration and keys (rotatable), its token service
 * (client credentials for APP_ID / APP_PASSWORD), and the Connector API's SendToConversation,
 * which checks the bot's token and every activity against the published reference and Teams' rules,
 * answering as the reference says (ResourceResponse, or an ErrorResponse with its status).
 */
export async function startBotFrameworkStandIn(): Promise<BotFrameworkStandIn> {
  const published: SigningKey[] = [await newKey()];
  const unpublished = await newKey();
  const tokens = new Set<string>();
  const activities: SeenActivity[] = [];
  const counts = { keys: 0, tokens: 0 };
  const throttles = new Map<string, { times: number; status: number; retryAfterS?: number }>();
  let holding = false;
  const held: (() => void)[] = [];

  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await read(req);
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(json));
      };
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      if (req.method === 'GET' && path === '/v1/.well-known/openidconfiguration') {
        return answer(200, {
          issuer: 'https://api.botframework.com',
          authorization_endpoint: 'https://invalid.botframework.com',
          jwks_uri: `${base}/v1/.well-known/keys`,
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
        });
      }
      if (req.method === 'GET' && path === '/v1/.well-known/keys') {
        counts.keys++;
        return answer(200, { keys: published.map((key) => key.jwk) });
      }
      if (req.method === 'POST' && path === '/botframework.com/oauth2/v2.0/token') {
        if (holding) await new Promise<void>((resolve) => held.push(resolve));
        counts.tokens++;
        const form = new URLSearchParams(body);
        if (
          form.get('grant_type') !== 'client_credentials' ||
          form.get('scope') !== 'https://api.botframework.com/.default'
        )
          return answer(400, { error: 'invalid_request' });
        if (form.get('client_id') !== APP_ID || form.get('client_secret') !== APP_PASSWORD)
          return answer(401, { error: 'invalid_client' });
        const token = `stand-in-access-${randomUUID()}`;
        tokens.add(token);
        return answer(200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token });
      }
      const send = /^\/v3\/conversations\/([^/]+)\/activities$/.exec(path);
      if (req.method === 'POST' && send) {
        const conversationId = decodeURIComponent(send[1]!);
        let activity: Record<string, unknown> = {};
        try {
          activity = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // Checked below as an invalid activity.
        }
        const refuse = (status: number, code: string, problem: string, headers: Record<string, string> = {}) => {
          const error = { error: { code, message: problem } };
          if (!validErrorResponse(error)) throw new Error('the stand-in answered outside the reference');
          activities.push({ conversationId, activity, status, problem });
          answer(status, error, headers);
        };
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!bearer || !tokens.has(bearer))
          return refuse(401, 'Unauthorized', 'Authorization has been denied for this request.');
        const throttle = throttles.get(conversationId);
        if (throttle && throttle.times > 0) {
          throttle.times--;
          return refuse(
            throttle.status,
            throttle.status === 429 ? 'TooManyRequests' : 'ServiceError',
            'Throttled.',
            throttle.retryAfterS === undefined ? {} : { 'retry-after': String(throttle.retryAfterS) },
          );
        }
        const problem = activityProblem(activity, body);
        if (problem) return refuse(problem.status, 'BadArgument', problem.text);
        const resource = { id: `1:${randomUUID()}` };
        if (!validResourceResponse(resource)) throw new Error('the stand-in answered outside the reference');
        activities.push({ conversationId, activity, status: 201 });
        return answer(201, resource);
      }
      answer(404, { error: { code: 'NotFound', message: `${req.method} ${path} is not part of the stand-in` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    openIdUrl: `${base}/v1/.well-known/openidconfiguration`,
    tokenUrl: `${base}/botframework.com/oauth2/v2.0/token`,
    activities,
    counts,
    async sign(serviceUrl, claims = {}, options = {}) {
      const key = options.key === 'unpublished' ? unpublished : published.at(-1)!;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ serviceUrl, iss: ISSUER, aud: APP_ID, nbf: now - 5, exp: now + 3600, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
    async rotate() {
      published.push(await newKey());
    },
    holdTokens() {
      holding = true;
    },
    heldTokens: () => held.length,
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    throttle(conversationId, times, status, retryAfterS) {
      throttles.set(conversationId, { times, status, ...(retryAfterS === undefined ? {} : { retryAfterS }) });
    },
    close: () => {
      for (const answer of held.splice(0)) answer();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Why Teams would refuse this activity, worded as its 400s are; undefined when it is fine. */
function activityProblem(activity: Record<string, unknown>, raw: string): { status: number; text: string } | undefined {
  if (Buffer.byteLength(raw) > TEAMS_MAX_BYTES)
    return { status: 413, text: `Message size ${Buffer.byteLength(raw)} is over Teams' 28 KB` };
  const invalid = (validate: ValidateFunction, value: unknown, where: string) =>
    validate(value)
      ? undefined
      : {
          status: 400,
          text: `${where}${validate.errors?.[0]?.instancePath ?? ''} ${validate.errors?.[0]?.message ?? 'is invalid'}`,
        };
  const bad = invalid(validActivity, activity, 'activity');
  if (bad) return bad;
  if (activity.type !== 'message')
    return { status: 400, text: `activity.type ${String(activity.type)} is not a message` };
  const attachments = (activity.attachments ?? []) as { contentType?: string; content?: unknown }[];
  if ((typeof activity.text !== 'string' || activity.text.trim() === '') && attachments.length === 0)
    return { status: 400, text: 'Message has no text and no attachments' };
  if (activity.attachmentLayout === 'carousel' && attachments.length > TEAMS_MAX_CAROUSEL)
    return { status: 400, text: `A carousel of ${attachments.length} cards; Teams shows ${TEAMS_MAX_CAROUSEL}` };
  const actions: unknown[] = [];
  for (const attachment of attachments) {
    if (attachment.contentType !== 'application/vnd.microsoft.card.hero')
      return {
        status: 400,
        text: `attachment contentType ${String(attachment.contentType)} is not one this connector sends`,
      };
    const cardProblem = invalid(validHeroCard, attachment.content, 'heroCard');
    if (cardProblem) return cardProblem;
    const card = attachment.content as { buttons?: unknown[]; images?: { url?: string }[] };
    if ((card.buttons?.length ?? 0) > TEAMS_MAX_BUTTONS)
      return { status: 400, text: `A hero card has ${card.buttons!.length} buttons; Teams shows ${TEAMS_MAX_BUTTONS}` };
    if (card.images?.some((image) => typeof image.url !== 'string' || !/^https:\/\//.test(image.url)))
      return { status: 400, text: 'A card image needs an https url' };
    actions.push(...(card.buttons ?? []));
  }
  const suggested = (activity.suggestedActions as { actions?: unknown[] } | undefined)?.actions ?? [];
  if (suggested.length > TEAMS_MAX_SUGGESTED)
    return { status: 400, text: `${suggested.length} suggested actions; Teams shows ${TEAMS_MAX_SUGGESTED}` };
  actions.push(...suggested);
  for (const action of actions as { type?: string; title?: string; value?: unknown }[]) {
    if (!TEAMS_ACTIONS.has(action.type ?? ''))
      return { status: 400, text: `Card action type ${String(action.type)} is not supported by Teams` };
    if (typeof action.title !== 'string' || action.title.trim() === '')
      return { status: 400, text: 'A card action needs a title' };
    if (action.type === 'openUrl' && (typeof action.value !== 'string' || !/^https:\/\//.test(action.value)))
      return { status: 400, text: 'openUrl needs an https address as its value' };
    if (action.type === 'imBack' && (typeof action.value !== 'string' || action.value === ''))
      return { status: 400, text: 'imBack needs the text it sends as its value' };
  }
  return undefined;
}

/** The server's Teams settings for a stand-in: its keys, its token service, and its origin as the one allowed serviceUrl. */
export function teamsSettings(
  standIn: Pick<BotFrameworkStandIn, 'url' | 'openIdUrl' | 'tokenUrl'>,
): Record<string, string> {
  return {
    BOTFRAMEWORK_APP_ID: APP_ID,
    BOTFRAMEWORK_APP_PASSWORD: APP_PASSWORD,
    BOTFRAMEWORK_OPENID_URL: standIn.openIdUrl,
    BOTFRAMEWORK_TOKEN_URL: standIn.tokenUrl,
    BOTFRAMEWORK_SERVICE_URLS: standIn.url,
  };
}

/** An activity as the Bot Framework posts it to the bot for a Teams personal chat. */
export function teamsActivity(
  serviceUrl: string,
  conversationId: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    type: 'message',
    id: `f:${randomUUID()}`,
    timestamp: new Date().toISOString(),
    serviceUrl,
    channelId: 'msteams',
    from: {
      id: `29:user-${conversationId}`,
      name: 'Ada Lovelace',
      aadObjectId: '6c2b1f0e-0000-4000-8000-00000000a11c',
    },
    conversation: {
      id: conversationId,
      conversationType: 'personal',
      tenantId: '72f988bf-0000-4000-8000-0000000000aa',
    },
    recipient: { id: `28:${APP_ID}`, name: 'Support bot' },
    channelData: { tenant: { id: '72f988bf-0000-4000-8000-0000000000aa' } },
    ...fields,
  };
}

/** Posts an activity to the bot's webhook with a token (none: no Authorization header). */
export function post(webhook: string, activity: Record<string, unknown>, token: string | undefined): Promise<Response> {
  return fetch(webhook, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(activity),
  });
}
