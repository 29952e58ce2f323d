import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext } from '../step-contract/step-type.ts';
import { baseUrl, failure, secretName, under } from './schema-parts.ts';

interface ZendeskParams {
  subdomain?: string;
  apiBaseUrl?: string;
  email: string;
  tokenSecret: string;
  subject: string;
  body: string;
  requesterEmail?: string;
  requesterName?: string;
  priority?: string;
  type?: string;
  tags?: string[];
  idempotencyKey?: string;
}

/** Zendesk Support: create a ticket (Ticketing API, an API token with Basic authentication). */
export const zendeskCreateTicket = defineStepType({
  name: 'zendeskCreateTicket',
  level: 'action',
  description:
    "Creates a ticket in Zendesk Support, signed in with an agent's email address and API token; the result is the ticket's number, address and status.",
  service: 'optional',
  secrets: ['tokenSecret'],
  fixed: ['subdomain', 'apiBaseUrl', 'email'],
  params: {
    type: 'object',
    properties: {
      subdomain: {
        type: 'string',
        pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
        description: 'Your Zendesk subdomain: "acme" for https://acme.zendesk.com.',
      },
      apiBaseUrl: baseUrl(
        'Instead of subdomain: the Zendesk address (a host mapped domain, a proxy or a test double).',
      ),
      email: {
        type: 'string',
        format: 'email',
        description: 'The email of the Zendesk agent the API token belongs to.',
      },
      tokenSecret: secretName(
        'The secret holding the API token (Admin Center > Apps and integrations > APIs > Zendesk API).',
      ),
      subject: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description: "The ticket's subject; {{variables}} are filled in.",
      },
      body: {
        type: 'string',
        minLength: 1,
        maxLength: 65535,
        description: "The ticket's first comment (what the customer needs).",
      },
      requesterEmail: {
        type: 'string',
        format: 'email',
        description:
          'Who the ticket is for; Zendesk creates the user when new. The agent is the requester when left out.',
      },
      requesterName: { type: 'string', maxLength: 255, description: "The requester's name, for a new user." },
      priority: { enum: ['urgent', 'high', 'normal', 'low'], description: "The ticket's priority." },
      type: { enum: ['problem', 'incident', 'question', 'task'], description: "The ticket's type." },
      tags: {
        type: 'array',
        maxItems: 20,
        items: { type: 'string', pattern: '^[^\\s,]{1,80}$' },
        description: 'Tags to put on the ticket.',
      },
      idempotencyKey: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        description:
          'Sent as Idempotency-Key, so a call tried again (a step run in the background) makes no second ticket, e.g. "{{userId}}-refund".',
      },
    },
    anyOf: [{ required: ['subdomain'] }, { required: ['apiBaseUrl'] }],
    required: ['email', 'tokenSecret', 'subject', 'body'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      id: { type: 'integer', description: "The ticket's number." },
      url: { type: 'string', description: "The ticket's API address." },
      status: { type: 'string', description: 'The ticket\'s status, "new" or "open".' },
    },
    required: ['id', 'url', 'status'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as ZendeskParams;
    const token = ctx.secret('tokenSecret')!;
    const credential = Buffer.from(`${params.email}/token:${token}`, 'utf8').toString('base64');
    ctx.redact(credential);
    const base = params.apiBaseUrl ?? `https://${params.subdomain}.zendesk.com/`;
    const ticket = {
      subject: params.subject,
      comment: { body: params.body },
      ...(params.requesterEmail
        ? {
            requester: {
              email: params.requesterEmail,
              ...(params.requesterName ? { name: params.requesterName } : {}),
            },
          }
        : {}),
      ...(params.priority ? { priority: params.priority } : {}),
      ...(params.type ? { type: params.type } : {}),
      ...(params.tags ? { tags: params.tags } : {}),
    };
    const response = await ctx.request({
      method: 'POST',
      url: under(base, 'api/v2/tickets.json'),
      headers: {
        authorization: `Basic ${credential}`,
        ...(params.idempotencyKey ? { 'idempotency-key': params.idempotencyKey } : {}),
      },
      json: { ticket },
    });
    const created = (response.body as { ticket?: { id?: unknown; url?: unknown; status?: unknown } } | null)?.ticket;
    if (typeof created?.id !== 'number') throw failure('Zendesk answered without the new ticket.', 'invalid_body');
    return { id: created.id, url: String(created.url ?? ''), status: String(created.status ?? 'new') };
  },
});
