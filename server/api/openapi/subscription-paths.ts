import { MAX_SUBSCRIPTIONS } from '../../app/manage-subscriptions.ts';
import { EVENT_KINDS, type EventKind } from '../../ports/event-subscriptions.ts';
import { MAX_TARGET_URL } from '../management/subscriptions-router.ts';
import { error, managementErrors, ref, type Obj } from './operation-parts.ts';

const dateTime = (description: string, nullable = false): Obj => ({
  type: nullable ? ['string', 'null'] : 'string',
  format: 'date-time',
  description: `${description} ISO 8601 UTC with milliseconds.`,
});

const eventKinds: Obj = {
  type: 'string',
  enum: [...EVENT_KINDS],
  description: "An event kind (see the webhooks of this document for each one's payload).",
};

const subscription: Obj = {
  title: 'Subscription',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'targetUrl',
    'events',
    'status',
    'createdAt',
    'failures',
    'lastError',
    'lastAttemptAt',
    'lastDeliveredAt',
    'pausedAt',
    'pending',
  ],
  properties: {
    id: {
      type: 'string',
      description: "The subscription's id (sub_…), as in every delivery's subscriptionId and x-subscription-id.",
    },
    targetUrl: { type: 'string', format: 'uri', description: 'Where events are POSTed.' },
    events: { type: 'array', items: eventKinds, description: 'The kinds delivered.' },
    status: {
      type: 'string',
      enum: ['active', 'paused'],
      description:
        'paused: deliveries failed SUBSCRIPTION_PAUSE_AFTER times in a row and stopped; they keep their place, and POST …/resume (or …/replay) starts them again.',
    },
    createdAt: dateTime('When it was made.'),
    failures: { type: 'integer', minimum: 0, description: 'Failed delivery attempts in a row (0 after a success).' },
    lastError: { type: ['string', 'null'], description: 'Why the last attempt failed; null after a success.' },
    lastAttemptAt: dateTime('The last delivery attempt, or null.', true),
    lastDeliveredAt: dateTime('The last successful delivery, or null.', true),
    pausedAt: dateTime('When it was paused; null while active.', true),
    pending: { type: 'integer', minimum: 0, description: 'Events recorded for it and not delivered yet.' },
  },
};

const created: Obj = {
  title: 'Subscription created',
  type: 'object',
  additionalProperties: false,
  required: [...(subscription.required as string[]), 'secret'],
  properties: {
    ...(subscription.properties as Obj),
    secret: {
      type: 'string',
      description:
        'The key deliveries are signed with (HMAC-SHA256, see the webhooks). Shown here once: it is never listed again.',
    },
  },
};

const request: Obj = {
  title: 'Subscription request',
  type: 'object',
  additionalProperties: false,
  required: ['targetUrl', 'events'],
  properties: {
    targetUrl: {
      type: 'string',
      format: 'uri',
      maxLength: MAX_TARGET_URL,
      description:
        "An absolute http(s) URL (no user:password@, no #fragment), e.g. a Zapier or n8n webhook URL. The integration client's rules apply: a private, loopback or link-local address is refused (400 forbidden_destination) unless INTEGRATION_ALLOWED_HOSTS lists the host, and when that list is set only its hosts are allowed.",
      examples: ['https://hooks.zapier.com/hooks/catch/123456/abcdef/'],
    },
    events: {
      type: 'array',
      items: eventKinds,
      minItems: 1,
      maxItems: EVENT_KINDS.length,
      uniqueItems: true,
      description: 'The kinds to deliver.',
    },
    secret: {
      type: 'string',
      minLength: 32,
      maxLength: 256,
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      description: 'Optional: the signing key to use (no control characters); one is generated when left out.',
    },
  },
};

const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: "The subscription's id.",
  schema: { type: 'string', minLength: 1, maxLength: 100 },
};
const notFound = error('not_found: there is no such subscription.');
const subscriptionJson = { 'application/json': { schema: ref('schemas/Subscription') } };

/** The payload (`data`) of each event kind. */
const DATA: Record<EventKind, { summary: string; schema: Obj }> = {
  'conversation.started': {
    summary:
      "A user's conversation stored its first message (the bot's greeting, the user's first words, or a trigger's first message).",
    schema: {
      type: 'object',
      required: ['via'],
      properties: {
        via: { type: 'string', description: 'What started it: start (the widget opened), text, postback, trigger, …' },
      },
    },
  },
  'dialog.started': {
    summary: "A dialog was entered: the start dialog, a trigger's, a menu choice, an intent, a goto.",
    schema: {
      type: 'object',
      required: ['dialogId'],
      properties: { dialogId: { type: 'string', description: 'The dialog.' } },
    },
  },
  'dialog.completed': {
    summary:
      'A dialog reached an end step or ran past its last step (a dialog left by a goto or a fatal error is not completed).',
    schema: {
      type: 'object',
      required: ['dialogId'],
      properties: { dialogId: { type: 'string', description: 'The dialog.' } },
    },
  },
  'userData.changed': {
    summary: "Declared user-data fields changed: in a turn (an answer, a trigger's data) or saved by the page.",
    schema: {
      type: 'object',
      required: ['fields', 'values'],
      properties: {
        fields: { type: 'array', items: { type: 'string' }, description: 'The fields that changed, sorted.' },
        values: {
          type: 'object',
          additionalProperties: true,
          description: 'Their new values (null for a field cleared).',
        },
      },
    },
  },
  'trigger.finished': {
    summary: "A trigger's dialog ran (the trigger endpoint's 202 said it would).",
    schema: {
      type: 'object',
      required: ['triggerId', 'dialogId'],
      properties: {
        triggerId: { type: 'string', description: "The trigger's id." },
        dialogId: { type: 'string', description: 'The dialog it started.' },
      },
    },
  },
  'integration.failed': {
    summary: "An integration step's call failed (for an async step: failed for good, after its retries).",
    schema: {
      type: 'object',
      required: ['dialogId', 'stepId', 'integration', 'errorKind', 'status', 'message', 'async'],
      properties: {
        dialogId: { type: ['string', 'null'], description: 'The dialog of the step.' },
        stepId: { type: ['string', 'null'], description: 'The step.' },
        integration: { type: ['string', 'null'], description: 'Its step type, e.g. slackPostMessage.' },
        errorKind: {
          type: 'string',
          description: 'network, timeout, status, invalid_body, auth, rate_limited, … (docs/integrations.md).',
        },
        status: { type: ['integer', 'null'], description: 'The HTTP status for a status error.' },
        message: { type: 'string', description: 'What went wrong, without secrets.' },
        async: { type: 'boolean', description: 'True for an asynchronous step.' },
      },
    },
  },
  'message.notUnderstood': {
    summary:
      "The user's text was of no use to the step they were on and no intent took it (the bot asked again or said its fallback).",
    schema: {
      type: 'object',
      required: ['dialogId', 'stepId', 'text'],
      properties: {
        dialogId: { type: ['string', 'null'], description: 'Where the user was.' },
        stepId: { type: ['string', 'null'], description: 'The step.' },
        text: { type: 'string', description: 'What the user wrote.' },
      },
    },
  },
  'message.undelivered': {
    summary:
      'A messaging app refused a bot message for good (the user blocked the bot, an address it does not know): it is not sent again. Rate limits and passing faults are retried and never reported here.',
    schema: {
      type: 'object',
      required: ['channel', 'seq', 'vendorCode', 'message'],
      properties: {
        channel: { type: 'string', description: 'The connector, e.g. telegram.' },
        seq: { type: 'integer', description: "The bot message's seq in the user's transcript." },
        vendorCode: {
          type: 'string',
          description: "The vendor's code for the refusal (Telegram: the HTTP status, such as 403).",
        },
        message: { type: 'string', description: "The vendor's words, without secrets." },
      },
    },
  },
  'user.erased': {
    summary:
      'Everything about the user was erased (DELETE /api/management/users/{userId}); erase your copy too. Their earlier events are no longer replayable.',
    schema: { type: 'object', additionalProperties: false, properties: {} },
  },
};

const schemaName = (kind: EventKind) =>
  `${kind
    .split('.')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}Event`;

function eventSchema(kind: EventKind): Obj {
  return {
    title: `${kind} event`,
    description: DATA[kind].summary,
    type: 'object',
    required: ['id', 'kind', 'occurredAt', 'sequence', 'bot', 'subscriptionId', 'user', 'data'],
    properties: {
      id: {
        type: 'string',
        description:
          "The event's id (evt_…), also in x-event-id: the same in a retry and a replay, so deduplicate by it.",
      },
      kind: { const: kind, description: 'The event kind, also in x-event-kind.' },
      occurredAt: dateTime('When it happened.'),
      sequence: {
        type: 'integer',
        minimum: 1,
        description:
          "Its place in the bot's event log: ascending in delivery order; one user's events come in the order they happened.",
      },
      bot: { type: 'string', description: "The bot's id." },
      subscriptionId: { type: 'string', description: 'The subscription it is delivered for.' },
      user: {
        type: 'object',
        required: ['id', 'channelId', 'address'],
        properties: {
          id: { type: 'string', description: "The user's id, as in the exports." },
          channelId: {
            type: 'string',
            description:
              "The channel of their conversation, on every event: webchat, telegram, whatsapp, twilio-sms, twilio-whatsapp, slack, messenger, teams, or a REST channel's name.",
          },
          address: {
            type: 'string',
            description:
              'Their user address for the trigger endpoint, base64url: POST /api/management/trigger/{address}/{dialog} starts a dialog for them.',
          },
        },
      },
      data: DATA[kind].schema,
    },
  };
}

/** Schemas of the subscription endpoints and of each event kind. */
export function subscriptionSchemas(): Obj {
  const schemas: Obj = { Subscription: subscription, SubscriptionCreated: created, SubscriptionRequest: request };
  for (const kind of EVENT_KINDS) schemas[schemaName(kind)] = eventSchema(kind);
  return schemas;
}

/** One webhook per event kind: what a subscriber receives, signed. */
export function subscriptionWebhooks(): Obj {
  const webhooks: Obj = {};
  for (const kind of EVENT_KINDS) {
    webhooks[kind] = {
      post: {
        operationId: `deliver${schemaName(kind)}`,
        tags: ['Subscriptions'],
        summary: `Delivery of ${kind}`,
        description: `${DATA[kind].summary}\n\nPOSTed to each subscription's targetUrl that asked for it, one event a request, with x-timestamp (UNIX seconds) and x-signature: sha256=<hex HMAC-SHA256 of "<x-timestamp>.<raw body>" keyed with the subscription's secret> (the REST channel's callback scheme: recompute it over the raw body, compare in constant time, refuse a timestamp over 5 minutes old). Answer 2xx to accept; anything else is retried with backoff (same id), and a 410 Gone ends the subscription.`,
        parameters: [
          {
            name: 'x-event-id',
            in: 'header',
            required: true,
            description: "The event's id, for deduplication.",
            schema: { type: 'string' },
          },
          {
            name: 'x-event-kind',
            in: 'header',
            required: true,
            description: 'The event kind.',
            schema: { type: 'string', const: kind },
          },
          {
            name: 'x-subscription-id',
            in: 'header',
            required: true,
            description: 'The subscription.',
            schema: { type: 'string' },
          },
          {
            name: 'x-timestamp',
            in: 'header',
            required: true,
            description: 'UNIX seconds when it was signed.',
            schema: { type: 'string', pattern: '^\\d+$' },
          },
          {
            name: 'x-signature',
            in: 'header',
            required: true,
            description: 'sha256=<hex>, see above.',
            schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref(`schemas/${schemaName(kind)}`) } },
        },
        responses: {
          '200': { description: 'Accepted (any 2xx).' },
          '410': { description: 'Gone: the subscription is deleted and nothing more is sent.' },
        },
      },
    };
  }
  return webhooks;
}

/** The subscription endpoints of the management API. */
export function subscriptionPaths(): Obj {
  return {
    '/api/management/subscriptions': {
      post: {
        operationId: 'subscribe',
        tags: ['Subscriptions'],
        summary: 'Subscribe a URL to bot events (REST hooks)',
        description: `Beyond the spec: instant triggers for automation platforms (n8n, Zapier, Make). From now on each event of the kinds asked for is POSTed to targetUrl, signed (see the webhooks), one at a time, in the order recorded (one user's in the order they happened), retried with backoff while the target fails, and the subscriber is paused after SUBSCRIPTION_PAUSE_AFTER failures in a row. Events are kept SUBSCRIPTION_EVENT_DAYS days for replays. At most ${MAX_SUBSCRIPTIONS} subscriptions.`,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('schemas/SubscriptionRequest') } },
        },
        responses: {
          '201': {
            description: 'Subscribed; the answer holds the signing secret, shown only here.',
            headers: { Location: { description: "The subscription's address.", schema: { type: 'string' } } },
            content: { 'application/json': { schema: ref('schemas/SubscriptionCreated') } },
            links: {
              subscription: {
                operationId: 'getSubscription',
                parameters: { id: '$response.body#/id' },
                description: 'The subscription made.',
              },
              unsubscribe: {
                operationId: 'unsubscribe',
                parameters: { id: '$response.body#/id' },
                description: 'Ends it.',
              },
            },
          },
          '400': error(
            'invalid_body: not JSON, an unknown field, a bad URL or event kind (details.field names it); forbidden_destination: the integration client may not call targetUrl (a private, loopback or link-local address, a name such as localhost, a host outside INTEGRATION_ALLOWED_HOSTS; a name is checked again against the address it resolves to on every delivery).',
          ),
          '409': error(`limit_reached: the bot has ${MAX_SUBSCRIPTIONS} subscriptions.`),
          '415': error('unsupported_media_type: the body is not application/json.'),
          ...managementErrors,
        },
      },
      get: {
        operationId: 'listSubscriptions',
        tags: ['Subscriptions'],
        summary: 'List subscriptions',
        description:
          'Every subscription, oldest first, with its status (a paused one says since when and why) and backlog; never the secrets.',
        responses: {
          '200': {
            description: 'The subscriptions.',
            content: { 'application/json': { schema: { type: 'array', items: ref('schemas/Subscription') } } },
          },
          ...managementErrors,
        },
      },
    },
    '/api/management/subscriptions/{id}': {
      get: {
        operationId: 'getSubscription',
        tags: ['Subscriptions'],
        summary: 'One subscription',
        parameters: [idParameter],
        responses: {
          '200': { description: 'The subscription.', content: subscriptionJson },
          '404': notFound,
          ...managementErrors,
        },
      },
      delete: {
        operationId: 'unsubscribe',
        tags: ['Subscriptions'],
        summary: 'Unsubscribe',
        description:
          'Ends the subscription: no delivery starts after this answers (one already under way may still arrive).',
        parameters: [idParameter],
        responses: { '204': { description: 'Deleted.' }, '404': notFound, ...managementErrors },
      },
    },
    '/api/management/subscriptions/{id}/resume': {
      post: {
        operationId: 'resumeSubscription',
        tags: ['Subscriptions'],
        summary: 'Resume a paused subscriber',
        description:
          'Deliveries start again where they stopped: the subscriber receives every event it missed, once each, in order.',
        parameters: [idParameter],
        responses: {
          '200': { description: 'Active again.', content: subscriptionJson },
          '404': notFound,
          ...managementErrors,
        },
      },
    },
    '/api/management/subscriptions/{id}/replay': {
      post: {
        operationId: 'replaySubscription',
        tags: ['Subscriptions'],
        summary: 'Deliver again from a point in time',
        description:
          "Delivers again every recorded event of the subscription's kinds that happened at or after `from`, and everything after, with their original ids (deduplicate by id); a paused subscription is resumed. Events older than SUBSCRIPTION_EVENT_DAYS, and an erased user's, are gone.",
        parameters: [idParameter],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                title: 'Replay request',
                type: 'object',
                additionalProperties: false,
                required: ['from'],
                properties: {
                  from: {
                    type: 'integer',
                    minimum: 0,
                    maximum: 253402300799,
                    description: 'UNIX seconds: the earliest event to deliver again.',
                  },
                },
              },
            },
          },
        },
        responses: {
          '202': {
            description: 'Replaying; pending says how many events are on their way.',
            content: subscriptionJson,
          },
          '400': error('invalid_body: from is missing or not a whole number of seconds.'),
          '404': notFound,
          '415': error('unsupported_media_type: the body is not application/json.'),
          ...managementErrors,
        },
      },
    },
  };
}
