import path from 'node:path';
import { z } from 'zod';
import { compileProxyTrust } from './settings/client-ip.ts';
import { serviceUrlRule } from './settings/service-urls.ts';
import {
  BOT_FRAMEWORK_OPENID_URL,
  BOT_FRAMEWORK_TOKEN_URL,
  DEFAULT_SERVICE_URLS,
} from './settings/vendor-addresses.ts';
import { MESSENGER_BOT_TAGS } from './settings/messenger-tags.ts';
import { restChannelsSchema } from './settings/rest-channels.ts';
import { parseDuration } from './definition/duration.ts';
import { projectRoot } from './paths.ts';
import { ROLES, type Role } from './ports/roles.ts';

/** The demo bot ships with the product and is the default definition. */
export const DEMO_BOT_DEFINITION = path.join(projectRoot(), 'demo', 'bot.json');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const port = z
  .string()
  .regex(/^\d+$/, 'must be a whole number from 0 to 65535')
  .transform(Number)
  .refine((n) => n >= 0 && n <= 65535, 'must be a whole number from 0 to 65535');

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** An origin as a browser sends it: scheme, host and port only, e.g. `https://shop.example.com:8443`. */
const origin = z.string().transform((value, ctx) => {
  const problem = value === '*' ? 'leave ALLOWED_ORIGINS unset to allow any origin; "*" is not an origin' : undefined;
  let url: URL | undefined;
  try {
    url = problem ? undefined : new URL(value);
  } catch {
    url = undefined;
  }
  const isOrigin =
    url &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password;
  if (!url || !isOrigin) {
    ctx.addIssue({
      code: 'custom',
      message:
        problem ??
        `must be a comma-separated list of origins such as https://shop.example.com (scheme, host and optional port, no path); "${value}" is not one`,
    });
    return z.NEVER;
  }
  return url.origin;
});

/** An optional setting in a fixed form: unset or blank is undefined, anything else must match. */
const optionalMatching = (pattern: RegExp, message: string) =>
  optionalText.pipe(z.string().regex(pattern, message).optional());

/** A vendor API's address, its default when unset, without a trailing slash; only a stand-in in tests changes it. */
const apiUrl = (byDefault: string) =>
  optionalText.pipe(url(['http:', 'https:']).optional()).transform((value) => (value ?? byDefault).replace(/\/+$/, ''));

/** A whole number in the digits `pattern` allows, its default when unset. */
const wholeNumber = (pattern: RegExp, message: string, byDefault: number) =>
  z.string().regex(pattern, message).transform(Number).default(byDefault);

/** A duration such as 30m or 2h, its default when unset, within bounds; milliseconds after parsing. */
const duration = (byDefault: string, minMs: number, maxMs: number, message: string) =>
  optionalText
    .transform((text) => parseDuration(text ?? byDefault))
    .refine((ms): ms is number => ms !== undefined && ms >= minMs && ms <= maxMs, message);

/** The Meta platform's settings, each the same for WhatsApp and Messenger. */
const meta = {
  appSecret: optionalText.pipe(
    z
      .string()
      .min(16, 'must be the app secret Meta shows under App settings → Basic (at least 16 characters)')
      .max(256)
      .optional(),
  ),
  verifyToken: optionalMatching(
    /^[A-Za-z0-9_-]{16,128}$/,
    'must be 16 to 128 of A-Z a-z 0-9 _ - (you choose it, and type the same at Meta)',
  ),
  apiUrl: apiUrl('https://graph.facebook.com'),
  apiVersion: optionalMatching(/^v\d{1,3}\.\d{1,2}$/, 'must be a Graph API version such as v23.0').transform(
    (value) => value ?? 'v23.0',
  ),
};

/** A retention period in whole days; unset = kept until erased. */
const retentionDays = optionalText.pipe(
  z
    .string()
    .regex(
      /^[1-9]\d{0,4}$/,
      'must be a whole number of days from 1 to 99999, or unset to keep records until they are erased',
    )
    .transform(Number)
    .optional(),
);

/** The environment the server reads, with defaults from docs/configuration (README). */
export const configSchema = z
  .object({
    PORT: port.default(3000),
    HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
    DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
    BOT_DEFINITION: z.string().min(1, 'must not be empty').default(DEMO_BOT_DEFINITION),
    MONGODB_URL: optionalText.pipe(url(['mongodb:', 'mongodb+srv:']).optional()),
    REDIS_URL: optionalText.pipe(url(['redis:', 'rediss:']).optional()),
    BOT_FUNCTION_KEY: optionalText.pipe(z.string().min(16, 'must be at least 16 characters long').optional()),
    SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
    /** The secret SESSION_SECRET replaced: tokens it signed stay valid until they expire, so a rotation logs no one out. */
    SESSION_SECRET_PREVIOUS: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
    /** Lifetime of a web chat session token, in milliseconds after parsing; every connect issues a fresh one. */
    SESSION_TTL: duration(
      '30d',
      60_000,
      3_650 * 86_400_000,
      'must be a duration from 1m to 3650d, such as 30d, 12h or 90m',
    ),
    /**
     * Seals the secrets set in the studio (AES-256-GCM, key derived by HKDF). Unset on a single node:
     * generated into DATA_DIR on first start. Required in cluster mode (the same on every node).
     */
    SECRETS_KEY: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
    /** The key SECRETS_KEY replaced: secrets it sealed still open, and are sealed again under SECRETS_KEY at start. */
    SECRETS_KEY_PREVIOUS: optionalText.pipe(z.string().min(32, 'must be at least 32 characters long').optional()),
    BOT_IDENTITY_SECRET: optionalText.pipe(z.string().min(16, 'must be at least 16 characters long').optional()),
    /**
     * `true`: a web chat identity may carry a phone number the site verified, signed with the user id,
     * and links the web chat to that number's WhatsApp user (docs/channels.md). Needs BOT_IDENTITY_SECRET.
     */
    BOT_IDENTITY_LINK_PHONE: optionalText.pipe(
      z
        .enum(['1', '0', 'true', 'false'], {
          message: 'must be true (a signed, verified phone number links the web chat) or false',
        })
        .transform((value) => value === '1' || value === 'true')
        .optional(),
    ),
    /**
     * Origins whose pages may open the widget, normalised (`https://shop.example.com`). Unset: any
     * origin. The server's own origin and PUBLIC_URL's are always allowed besides these.
     */
    ALLOWED_ORIGINS: optionalText.pipe(
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean),
        )
        .pipe(z.array(origin))
        .optional(),
    ),
    PUBLIC_URL: optionalText.pipe(url(['http:', 'https:']).optional()),
    /** Serve the demo shop page at /: unset = only when the demo bot runs; `1` always, `0` never. */
    DEMO_PAGE: optionalText.pipe(
      z
        .enum(['1', '0', 'true', 'false'], {
          message: 'must be 1 (serve the demo page at /) or 0 (do not); unset = only with the demo bot',
        })
        .transform((value) => value === '1' || value === 'true')
        .optional(),
    ),
    /**
     * Which proxies in front of the server may name the client in X-Forwarded-For, as Express's
     * `trust proxy`: a hop count, a comma list of addresses and subnets, `loopback`, `true`, `false`.
     */
    TRUST_PROXY: optionalText.transform((text, ctx) => {
      try {
        return compileProxyTrust(text ?? 'loopback');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** SMTP server for email steps, e.g. smtp://user:pass@mail.example.com:587; unset = email steps fail (logged) and follow onError. */
    SMTP_URL: optionalText.pipe(url(['smtp:', 'smtps:']).optional()),
    /** From address of the bot's email; `"<bot name>" <bot@localhost>` when unset. */
    SMTP_FROM: optionalText,
    /** Twilio-style SMS endpoint (form POST of To, From, Body with Basic auth); unset = sms steps fail (logged) and follow onError. */
    SMS_URL: optionalText.pipe(url(['http:', 'https:']).optional()),
    SMS_USERNAME: optionalText,
    SMS_PASSWORD: optionalText,
    SMS_FROM: optionalText,
    /** Requests a minute per client IP over the management API (exports, triggers, /metrics); beyond it 429. */
    MANAGEMENT_RATE_LIMIT: wholeNumber(
      /^[1-9]\d{0,8}$/,
      'must be a whole number of requests a minute, at least 1',
      1200,
    ),
    /** Client events (messages, presses, page events) a minute per web chat connection; beyond it protocol_error rate_limited. */
    WEBCHAT_RATE_LIMIT: wholeNumber(/^[1-9]\d{0,6}$/, 'must be a whole number of messages a minute, at least 1', 60),
    /**
     * Integration calls a minute per user and service (sync calls and async jobs scheduled), with
     * bursts of up to 10; beyond it the step fails with kind rate_limited and follows its onError.
     */
    INTEGRATION_USER_RATE_LIMIT: wholeNumber(
      /^[1-9]\d{0,6}$/,
      'must be a whole number of calls a minute, at least 1',
      30,
    ),
    /**
     * Seconds a job (trigger, timer, retried call) belongs to the worker that took it; after
     * a crash, another worker (or this one restarted) takes it over once this has passed.
     */
    JOB_LEASE_SECONDS: wholeNumber(/^[1-9]\d{0,3}$/, 'must be a whole number of seconds from 1 to 9999', 30),
    /**
     * Hosts integration calls may reach (comma list, e.g. `api.example.com,127.0.0.1`). Set: only these,
     * and they may be private or loopback addresses. Unset: any public host, never a private one.
     */
    INTEGRATION_ALLOWED_HOSTS: optionalText.pipe(
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((host) => host.trim().toLowerCase())
            .filter(Boolean),
        )
        .pipe(
          z.array(
            z.string().regex(/^[a-z0-9.\-:[\]]+$/, 'must be a comma-separated list of host names or IP addresses'),
          ),
        )
        .optional(),
    ),
    /**
     * Generic bot REST channels (name, key, optional callbackUrl), as a JSON list; unset = none.
     * Parsed in settings/rest-channels.ts.
     */
    REST_CHANNELS: optionalText.pipe(restChannelsSchema.optional()).transform((channels) => channels ?? []),
    /**
     * How long a REST channel request waits for the bot's answer (sync integration steps included)
     * before answering with what is there; the rest is called back. Milliseconds after parsing.
     */
    REST_CHANNEL_ANSWER_WAIT: duration(
      '10s',
      100,
      60_000,
      'must be a duration from 100ms to 60s, such as 10s or 500ms',
    ),
    /**
     * How long a visitor's message (web chat or a REST channel) may take to be stored, retries of a
     * slow or unreachable store included; past it the visitor is asked to send it again and the log
     * says turn_deadline_passed. Milliseconds after parsing.
     */
    TURN_DEADLINE: duration('15s', 100, 120_000, 'must be a duration from 100ms to 120s, such as 15s or 500ms'),
    /**
     * The Telegram channel (channels/telegram/): the bot's token from @BotFather; unset = no Telegram
     * channel. Never logged: it sits in the Bot API's URL path, which every log line redacts.
     */
    TELEGRAM_BOT_TOKEN: optionalMatching(
      /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/,
      'must be the token @BotFather gave, such as 123456789:AAF…',
    ),
    /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token with every update (setWebhook's secret_token); required with the token. */
    TELEGRAM_WEBHOOK_SECRET: optionalMatching(
      /^[A-Za-z0-9_-]{16,256}$/,
      'must be 16 to 256 of A-Z a-z 0-9 _ - (Telegram allows no other characters)',
    ),
    /**
     * `true`: the server sets its own Telegram webhook (PUBLIC_URL/api/webhooks/telegram, with the
     * secret) each time it starts listening, as `npx chatbot telegram set-webhook` does; unset or
     * `false`: it leaves the webhook as it is.
     */
    TELEGRAM_SET_WEBHOOK: optionalText.pipe(
      z
        .enum(['1', '0', 'true', 'false'], {
          message: 'must be true (set the Telegram webhook at start) or false (leave it as it is)',
        })
        .transform((value) => value === '1' || value === 'true')
        .optional(),
    ),
    /** Where the Bot API is; only a stand-in in tests or a local Bot API server changes it. */
    TELEGRAM_API_URL: apiUrl('https://api.telegram.org'),
    /**
     * Microsoft Teams through the Bot Framework (channels/botframework/): the Azure Bot's Microsoft
     * app id (the audience of the Bot Framework's tokens); unset = no Teams channel.
     */
    BOTFRAMEWORK_APP_ID: optionalMatching(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      "must be the Azure Bot's Microsoft App ID, a GUID such as 8d3c2a4e-…",
    ),
    /** The app's client secret (its "password"), for the bot's own token; required with the app id. Never logged. */
    BOTFRAMEWORK_APP_PASSWORD: optionalText.pipe(
      z
        .string()
        .min(8, 'must be the client secret made for the app in Azure (Certificates & secrets)')
        .max(512)
        .optional(),
    ),
    /** Where the Bot Framework's token service is: a single-tenant bot names its tenant instead of botframework.com. */
    BOTFRAMEWORK_TOKEN_URL: optionalText
      .pipe(url(['http:', 'https:']).optional())
      .transform((value) => value ?? BOT_FRAMEWORK_TOKEN_URL),
    /** Where the Bot Framework publishes the keys its requests are signed with; only a stand-in in tests changes it. */
    BOTFRAMEWORK_OPENID_URL: optionalText
      .pipe(url(['http:', 'https:']).optional())
      .transform((value) => value ?? BOT_FRAMEWORK_OPENID_URL),
    /** The origins a conversation's serviceUrl may have, comma-separated (`*.` for any subdomain): the bot's token goes nowhere else. */
    BOTFRAMEWORK_SERVICE_URLS: optionalText.transform((text, ctx) => {
      try {
        return (text ?? DEFAULT_SERVICE_URLS.join(','))
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '')
          .map(serviceUrlRule);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `${(error as Error).message} (a comma-separated list of origins)` });
        return z.NEVER;
      }
    }),
    /**
     * The WhatsApp Cloud API channel (channels/whatsapp/): a system user's access token with the
     * whatsapp_business_messaging permission; unset = no WhatsApp channel. The four settings go together.
     */
    WHATSAPP_ACCESS_TOKEN: optionalMatching(
      /^[A-Za-z0-9_.-]{20,1024}$/,
      'must be the access token Meta gave the system user (letters, digits, _ . -)',
    ),
    /** The business number's id (WhatsApp → API Setup at Meta), not the phone number itself. */
    WHATSAPP_PHONE_NUMBER_ID: optionalMatching(
      /^\d{5,30}$/,
      'must be the phone number id Meta shows under WhatsApp → API Setup (digits only), not the phone number',
    ),
    /** The Meta app's secret (App settings → Basic): every webhook is signed with it (X-Hub-Signature-256). */
    WHATSAPP_APP_SECRET: meta.appSecret,
    /** The token typed into the webhook's settings at Meta; Meta sends it back when it verifies the webhook. */
    WHATSAPP_VERIFY_TOKEN: meta.verifyToken,
    /** Where the Graph API is; only a stand-in in tests changes it. */
    WHATSAPP_API_URL: meta.apiUrl,
    /** The Graph API version the connector speaks. */
    WHATSAPP_API_VERSION: meta.apiVersion,
    /**
     * The Facebook Messenger channel (channels/messenger/): the page access token (Messenger → Settings
     * at Meta, a secret); unset = no Messenger channel. It goes with the app secret and the verify token.
     */
    MESSENGER_PAGE_ACCESS_TOKEN: optionalMatching(
      /^[A-Za-z0-9_.-]{20,1024}$/,
      'must be the page access token Meta generated (letters, digits, _ . -)',
    ),
    /** The Meta app's secret (App settings → Basic): every webhook is signed with it (X-Hub-Signature-256). */
    MESSENGER_APP_SECRET: meta.appSecret,
    /** The token typed into the webhook's settings at Meta; Meta sends it back when it verifies the webhook. */
    MESSENGER_VERIFY_TOKEN: meta.verifyToken,
    /** The page this bot answers for (its numeric id, Page → About): webhook entries of any other page are ignored and logged; unset = every page the app is subscribed to. */
    MESSENGER_PAGE_ID: optionalMatching(
      /^\d{1,30}$/,
      "must be the page's numeric id (Page → About → Page transparency, or the Graph API's /me)",
    ),
    /** The message tag that carries triggers outside the 24-hour window (never HUMAN_AGENT: that is for people); unset = none. */
    MESSENGER_MESSAGE_TAG: optionalText.pipe(
      z
        .enum(MESSENGER_BOT_TAGS, {
          error: `must be one of ${MESSENGER_BOT_TAGS.join(', ')} (HUMAN_AGENT is for a person answering, never a bot)`,
        })
        .optional(),
    ),
    /** Where the Graph API is; only a stand-in in tests changes it. */
    MESSENGER_API_URL: meta.apiUrl,
    /** The Graph API version the connector speaks. */
    MESSENGER_API_VERSION: meta.apiVersion,
    /**
     * SMS and WhatsApp through Twilio (channels/twilio/): the account's SID and auth token; unset = no
     * Twilio channel. Needs PUBLIC_URL (Twilio signs the public address) and TWILIO_SMS_FROM and/or
     * TWILIO_WHATSAPP_FROM.
     */
    TWILIO_ACCOUNT_SID: optionalMatching(
      /^AC[0-9a-fA-F]{32}$/,
      'must be the Account SID from the Twilio console (AC and 32 hex digits)',
    ),
    TWILIO_AUTH_TOKEN: optionalMatching(/^[0-9a-zA-Z]{16,128}$/, 'must be the Auth Token from the Twilio console'),
    /** The Twilio number the bot texts from (E.164, e.g. +15017122661); unset = no SMS channel. */
    TWILIO_SMS_FROM: optionalMatching(
      /^\+[1-9]\d{6,14}$/,
      'must be a phone number in E.164 form, such as +15017122661',
    ),
    /** The WhatsApp sender at Twilio (E.164, without "whatsapp:"); unset = no WhatsApp-through-Twilio channel. */
    TWILIO_WHATSAPP_FROM: optionalMatching(
      /^\+[1-9]\d{6,14}$/,
      'must be a phone number in E.164 form without "whatsapp:", such as +14155238886',
    ),
    /** Where Twilio's API is; only a stand-in in tests changes it. */
    TWILIO_API_URL: apiUrl('https://api.twilio.com'),
    /** The Slack channel (channels/slack/): the app's bot token (OAuth & Permissions); unset = no Slack channel. Never logged. */
    SLACK_BOT_TOKEN: optionalMatching(
      /^xoxb-[A-Za-z0-9-]{10,250}$/,
      "must be the app's Bot User OAuth Token, such as xoxb-…",
    ),
    /** The app's Signing Secret (Basic Information): every request Slack sends is signed with it; required with the token. */
    SLACK_SIGNING_SECRET: optionalMatching(
      /^[A-Za-z0-9]{16,128}$/,
      "must be the app's Signing Secret from its Basic Information page (letters and digits)",
    ),
    /** Where the Web API is; only a stand-in in tests changes it. */
    SLACK_API_URL: apiUrl('https://slack.com/api'),
    /** Requests a minute per client IP over the REST channels' endpoints; beyond it 429. */
    REST_CHANNEL_RATE_LIMIT: wholeNumber(
      /^[1-9]\d{0,8}$/,
      'must be a whole number of requests a minute, at least 1',
      1200,
    ),
    /**
     * The bearer token GET /metrics asks for. Unset: /metrics is open when HOST is a loopback
     * address (a local scraper or sidecar), and asks for the function key otherwise.
     */
    METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters long').optional()),
    /** Retention in days (jobs/retention.ts): transcripts, and each log kind (RETENTION_LOG_DAYS for those without their own). */
    RETENTION_TRANSCRIPT_DAYS: retentionDays,
    RETENTION_LOG_DAYS: retentionDays,
    RETENTION_USER_DATA_SNAPSHOT_DAYS: retentionDays,
    RETENTION_NLP_LOG_DAYS: retentionDays,
    RETENTION_OUTGOING_EMAIL_DAYS: retentionDays,
    RETENTION_OUTGOING_SMS_DAYS: retentionDays,
    RETENTION_FUZZY_QUESTION_ANSWER_LOG_DAYS: retentionDays,
    RETENTION_INTEGRATION_LOG_DAYS: retentionDays,
    RETENTION_URL_TRACKER_DAYS: retentionDays,
    /**
     * Insights: a conversation ends after this long without a turn; its last step is then where it
     * stopped (drop-off). Milliseconds after parsing.
     */
    INSIGHTS_WINDOW: duration('30m', 1_000, 7 * 86_400_000, 'must be a duration from 1s to 7d, such as 30m or 2h'),
    /** Insights: conversations one search request reads at most before it stops and says how far back it read. */
    INSIGHTS_SEARCH_BUDGET: wholeNumber(
      /^[1-9]\d{0,7}$/,
      'must be a whole number of conversations, at least 1',
      50_000,
    ),
    /** Misses: rows of the NLP log and of the FAQ log one request reads at most (then the page says how far it read). */
    INSIGHTS_MISSES_ROWS: wholeNumber(/^[1-9]\d{0,6}$/, 'must be a whole number of log rows from 1 to 9999999', 20_000),
    /** Misses: distinct inputs grouped at most, the most frequent (grouping compares each with every group). */
    INSIGHTS_MISSES_GROUPED: wholeNumber(/^[1-9]\d{0,3}$/, 'must be a whole number of inputs from 1 to 9999', 1_000),
    /** A studio session unused this long ends (ASVS 3.3: 30 minutes idle at level 2). Milliseconds after parsing. */
    STUDIO_SESSION_IDLE: duration('30m', 60_000, 7 * 86_400_000, 'must be a duration from 1m to 7d, such as 30m or 2h'),
    /** A studio session ends this long after sign-in whatever the activity (ASVS 3.3: 12 hours). Milliseconds after parsing. */
    STUDIO_SESSION_MAX: duration(
      '12h',
      60_000,
      30 * 86_400_000,
      'must be a duration from 1m to 30d, such as 12h or 1d',
    ),
    /** Studio sign-in attempts a minute for one account, over every node; beyond it 429. */
    STUDIO_LOGIN_RATE_LIMIT: wholeNumber(
      /^[1-9]\d{0,4}$/,
      'must be a whole number of attempts a minute, at least 1',
      10,
    ),
    /** Studio sign-in attempts a minute from one client address (IPv6 by /56), over every node; beyond it 429. */
    STUDIO_LOGIN_IP_RATE_LIMIT: wholeNumber(
      /^[1-9]\d{0,5}$/,
      'must be a whole number of attempts a minute, at least 1',
      60,
    ),
    /**
     * Single sign-on to the studio through OpenID Connect: the identity provider's issuer URL (its
     * /.well-known/openid-configuration is read at start). Unset = sign-in with email and password only.
     */
    OIDC_ISSUER: optionalText.pipe(url(['https:', 'http:']).optional()),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    /** What the sign-in button names, e.g. "Acme SSO". */
    OIDC_LABEL: optionalText,
    /** The ID token claim that carries the person's groups or roles (a string or a list of strings). */
    OIDC_ROLE_CLAIM: optionalText,
    /**
     * Which claim value gives which studio role: `value=role` pairs, comma-separated, e.g.
     * `studio-admins=owner,bot-authors=editor,analytics=analyst,staff=viewer`. A person whose claim
     * maps to no role is refused; with several, the first of owner, editor, analyst, viewer wins.
     */
    OIDC_ROLE_MAP: optionalText.transform((text, ctx) => {
      if (text === undefined) return undefined;
      const map = new Map<string, Role>();
      for (const pair of text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const at = pair.lastIndexOf('=');
        const role = pair.slice(at + 1).trim();
        if (at <= 0 || !(ROLES as readonly string[]).includes(role)) {
          ctx.addIssue({
            code: 'custom',
            message: `must be value=role pairs such as studio-admins=owner,bot-authors=editor (roles: ${ROLES.join(', ')}); "${pair}" is not one`,
          });
          return z.NEVER;
        }
        map.set(pair.slice(0, at).trim(), role as Role);
      }
      return map;
    }),
    /** Scopes asked of the identity provider, space-separated. */
    OIDC_SCOPES: optionalText.transform((text) => text ?? 'openid email profile'),
    /** Days to keep the studio's audit trail; unset = kept until removed by hand (it is not covered by RETENTION_LOG_DAYS). */
    RETENTION_AUDIT_DAYS: retentionDays,
    /** Event subscriptions: failed deliveries in a row after which a subscriber is paused (it keeps its place). */
    SUBSCRIPTION_PAUSE_AFTER: wholeNumber(
      /^[1-9]\d{0,3}$/,
      'must be a whole number of failed deliveries from 1 to 9999',
      20,
    ),
    /** Event subscriptions: the wait before the first retry of a failed delivery (doubling each time); milliseconds after parsing. */
    SUBSCRIPTION_RETRY_MIN: duration('1s', 10, 3_600_000, 'must be a duration from 10ms to 1h, such as 1s or 500ms'),
    /** Event subscriptions: the longest wait between retries; milliseconds after parsing. */
    SUBSCRIPTION_RETRY_MAX: duration('5m', 10, 86_400_000, 'must be a duration from 10ms to 24h, such as 5m'),
    /** Event subscriptions: days the event log keeps events, for replays. */
    SUBSCRIPTION_EVENT_DAYS: wholeNumber(/^[1-9]\d{0,2}$/, 'must be a whole number of days from 1 to 999', 7),
    /**
     * On SIGTERM, how long turns, sync integration calls and jobs in hand may take to finish
     * before the process stops anyway. Milliseconds after parsing.
     */
    SHUTDOWN_GRACE: duration('20s', 0, 600_000, 'must be a duration from 0s to 10m, such as 20s or 500ms'),
    /**
     * Sentence embeddings beside the word features of the intent classifier and the FAQ matcher
     * (docs/understanding.md): `off` (words only), `local` (the provisioned ONNX encoder, run in
     * process) or `http` (an OpenAI-compatible /v1/embeddings endpoint at EMBEDDINGS_URL).
     */
    EMBEDDINGS: optionalText
      .pipe(z.enum(['off', 'local', 'http'], { message: 'must be off, local or http' }).optional())
      .transform((value) => value ?? 'off'),
    /** EMBEDDINGS=http: the endpoint, e.g. http://127.0.0.1:11434/v1/embeddings. Integration rules apply (INTEGRATION_ALLOWED_HOSTS). */
    EMBEDDINGS_URL: optionalText.pipe(url(['http:', 'https:']).optional()),
    /** EMBEDDINGS=http: the model name sent; EMBEDDINGS=local: the model folder under MODELS_DIR. */
    EMBEDDINGS_MODEL: optionalText.pipe(
      z
        .string()
        .regex(/^[\w.:/-]{1,200}$/, 'must be a model name (letters, digits, . _ - : /)')
        .optional(),
    ),
    /** EMBEDDINGS=http: sent as a bearer token; write-only, never logged. */
    EMBEDDINGS_API_KEY: optionalText,
    /** How long a turn waits for its text's embedding before going on with words alone. Milliseconds after parsing. */
    EMBEDDINGS_TIMEOUT: duration('2s', 50, 30_000, 'must be a duration from 50ms to 30s, such as 2s or 500ms'),
    /** Where provisioned local encoders live (one folder per model). */
    MODELS_DIR: z
      .string()
      .min(1, 'must not be empty')
      .default(path.join(projectRoot(), '.cache', 'models')),
  })
  // The rules between settings (crossChecks, below): read when the environment is, once the module has loaded.
  .superRefine((config, ctx): void => {
    for (const check of crossChecks)
      for (const { path, message } of check(config)) ctx.addIssue({ code: 'custom', path: [path], message });
  });

export type Config = z.infer<typeof configSchema>;

const WHATSAPP_SETTINGS = [
  'WHATSAPP_ACCESS_TOKEN',
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
] as const;
const MESSENGER_SETTINGS = ['MESSENGER_PAGE_ACCESS_TOKEN', 'MESSENGER_APP_SECRET', 'MESSENGER_VERIFY_TOKEN'] as const;

/** A setting the others make wrong, and why. */
type CrossIssue = { readonly path: string; readonly message: string };

/** Config that go together: once one is set, each missing one is named. */
const together =
  (names: readonly (keyof Config)[], message: string) =>
  (config: Config): CrossIssue[] =>
    names.some((name) => config[name] !== undefined)
      ? names.filter((name) => config[name] === undefined).map((path) => ({ path, message }))
      : [];

/** A rotated secret's previous value, which would change nothing if it were the current one. */
const differs =
  (
    previous: 'SECRETS_KEY_PREVIOUS' | 'SESSION_SECRET_PREVIOUS',
    current: 'SECRETS_KEY' | 'SESSION_SECRET',
    message: string,
  ) =>
  (config: Config): CrossIssue[] =>
    config[previous] !== undefined && config[previous] === config[current] ? [{ path: previous, message }] : [];

/** The first issue is the one start-up names, so the order is the order they are worth fixing in. */
const crossChecks: readonly ((config: Config) => CrossIssue[])[] = [
  (config) =>
    config.EMBEDDINGS === 'http' && (config.EMBEDDINGS_URL === undefined || config.EMBEDDINGS_MODEL === undefined)
      ? [
          {
            path: config.EMBEDDINGS_URL === undefined ? 'EMBEDDINGS_URL' : 'EMBEDDINGS_MODEL',
            message: `must be set when EMBEDDINGS=http (the endpoint and the model it should run), or set EMBEDDINGS=off`,
          },
        ]
      : [],
  (config) =>
    config.REDIS_URL !== undefined && config.MONGODB_URL === undefined
      ? [
          {
            path: 'REDIS_URL',
            message:
              'turns on cluster mode, which needs MONGODB_URL (the embedded SQLite store is single-node); set MONGODB_URL or unset REDIS_URL',
          },
        ]
      : [],
  // Generated secrets live in each node's DATA_DIR: every node would have its own, and a widget
  // moved to another node (or a trigger sent there) would be refused.
  (config) =>
    config.REDIS_URL !== undefined && config.MONGODB_URL !== undefined
      ? (['SESSION_SECRET', 'BOT_FUNCTION_KEY', 'SECRETS_KEY'] as const)
          .filter((secret) => config[secret] === undefined)
          .map((path) => ({
            path,
            message:
              'must be set in cluster mode (REDIS_URL), the same on every node; a generated one would differ from node to node',
          }))
      : [],
  (config) =>
    config.OIDC_ISSUER !== undefined
      ? (['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP'] as const)
          .filter((needed) => config[needed] === undefined)
          .map((path) => ({
            path,
            message: 'must be set when OIDC_ISSUER is (single sign-on to the studio); see README, "Single sign-on"',
          }))
      : [],
  differs(
    'SECRETS_KEY_PREVIOUS',
    'SECRETS_KEY',
    'must differ from SECRETS_KEY (set it to the key SECRETS_KEY replaced)',
  ),
  together(
    ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET'],
    'must be set with the other Telegram setting: the bot token and the webhook secret go together (docs/channels.md)',
  ),
  (config) =>
    config.BOT_IDENTITY_LINK_PHONE === true && config.BOT_IDENTITY_SECRET === undefined
      ? [
          {
            path: 'BOT_IDENTITY_LINK_PHONE',
            message: 'needs BOT_IDENTITY_SECRET: the site signs the phone number with it',
          },
        ]
      : [],
  (config) =>
    config.TELEGRAM_SET_WEBHOOK === true && (config.TELEGRAM_BOT_TOKEN === undefined || config.PUBLIC_URL === undefined)
      ? [
          {
            path: 'TELEGRAM_SET_WEBHOOK',
            message:
              'needs TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL (the https address Telegram reaches this server by)',
          },
        ]
      : [],
  together(
    ['BOTFRAMEWORK_APP_ID', 'BOTFRAMEWORK_APP_PASSWORD'],
    'must be set with the other Bot Framework setting: the app id and its password go together (docs/channels.md)',
  ),
  together(
    WHATSAPP_SETTINGS,
    `must be set with the other WhatsApp settings: ${WHATSAPP_SETTINGS.join(', ')} go together (docs/channels.md)`,
  ),
  together(
    MESSENGER_SETTINGS,
    `must be set with the other Messenger settings: ${MESSENGER_SETTINGS.join(', ')} go together (docs/channels.md)`,
  ),
  twilioChecks,
  together(
    ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET'],
    'must be set with the other Slack setting: the bot token and the signing secret go together (docs/channels.md)',
  ),
  (config) =>
    config.SUBSCRIPTION_RETRY_MAX < config.SUBSCRIPTION_RETRY_MIN
      ? [{ path: 'SUBSCRIPTION_RETRY_MAX', message: 'must not be shorter than SUBSCRIPTION_RETRY_MIN' }]
      : [],
  differs(
    'SESSION_SECRET_PREVIOUS',
    'SESSION_SECRET',
    'must differ from SESSION_SECRET (set it to the secret SESSION_SECRET replaced)',
  ),
];

/** The Twilio channels: the account and its token, a number to write from, and the public address Twilio signs. */
function twilioChecks(config: Config): CrossIssue[] {
  const twilio = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const;
  const senders = config.TWILIO_SMS_FROM !== undefined || config.TWILIO_WHATSAPP_FROM !== undefined;
  if (!senders && twilio.every((name) => config[name] === undefined)) return [];
  return [
    ...twilio
      .filter((name) => config[name] === undefined)
      .map((path) => ({
        path,
        message:
          'must be set for the Twilio channels: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN go together (docs/channels.md)',
      })),
    ...(senders
      ? []
      : [
          {
            path: 'TWILIO_SMS_FROM',
            message: 'must be set (or TWILIO_WHATSAPP_FROM) for the Twilio channels: the number the bot writes from',
          },
        ]),
    ...(config.PUBLIC_URL === undefined
      ? [
          {
            path: 'PUBLIC_URL',
            message:
              'must be set for the Twilio channels: Twilio signs the public address of the webhook, and the signature is checked against it',
          },
        ]
      : []),
  ];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads and validates the environment. Throws a ConfigError whose message is
 * one line naming the first bad variable, e.g.
 * `PORT: must be a whole number from 0 to 65535 (got "abc")`.
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const variable = String(issue?.path[0] ?? 'environment');
  const shown = variable in env && !isSecret(variable) ? ` (got ${JSON.stringify(env[variable])})` : '';
  throw new ConfigError(`${variable}: ${issue?.message ?? 'is invalid'}${shown}`);
}

function isSecret(variable: string): boolean {
  // REST_CHANNELS holds the channels' keys.
  return /KEY|SECRET|TOKEN|PASSWORD|URL|CHANNELS/.test(variable);
}
