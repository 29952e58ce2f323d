import { defineStepType } from '../step-contract/define-step-type.ts';
import type { StepContext } from '../step-contract/step-type.ts';
import { baseUrl, failure, secretName, statusOf, under } from './schema-parts.ts';

interface HubSpotParams {
  tokenSecret: string;
  email: string;
  properties: Record<string, string | number | boolean | null>;
  apiBaseUrl: string;
}

/**
 * HubSpot: create or update a contact by email (CRM API v3, a private app's access token).
 * First an update addressed by email (idProperty=email); a 404 means no such contact, so it is
 * created; a 409 on that creation means another call created it meanwhile, so it is updated.
 */
export const hubspotUpsertContact = defineStepType({
  name: 'hubspotUpsertContact',
  level: 'action',
  description:
    "Creates a contact in HubSpot, or updates the one with this email address, signed in with a private app's token; the result is the contact's id and whether it is new.",
  service: 'optional',
  secrets: ['tokenSecret'],
  fixed: ['apiBaseUrl'],
  params: {
    type: 'object',
    properties: {
      tokenSecret: secretName(
        "The secret holding the private app's access token (pat-…), with the crm.objects.contacts.write scope.",
      ),
      email: {
        type: 'string',
        format: 'email',
        maxLength: 254,
        description: "The contact's email: how the contact is found, and set on a new one.",
      },
      properties: {
        type: 'object',
        maxProperties: 100,
        propertyNames: { pattern: '^[a-z0-9_]{1,100}$' },
        additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
        default: {},
        description:
          'Contact properties by their internal name in HubSpot, e.g. firstname set to {{name}} and phone to {{phone}}; values are sent as text; an empty value clears one.',
      },
      apiBaseUrl: baseUrl("HubSpot's API address (for a proxy or a test double).", 'https://api.hubapi.com/'),
    },
    required: ['tokenSecret', 'email'],
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      id: { type: 'string', description: "The contact's HubSpot id." },
      created: {
        type: 'boolean',
        description: 'True when the step created the contact, false when it updated an existing one.',
      },
    },
    required: ['id', 'created'],
  },
  async call(ctx: StepContext) {
    const params = ctx.params as unknown as HubSpotParams;
    const token = ctx.secret('tokenSecret')!;
    const headers = { authorization: `Bearer ${token}` };
    const properties = Object.fromEntries(
      Object.entries(params.properties).map(([name, value]) => [name, value === null ? '' : String(value)]),
    );
    const update = async () => {
      const response = await ctx.request({
        method: 'PATCH',
        url: under(params.apiBaseUrl, `crm/v3/objects/contacts/${encodeURIComponent(params.email)}`),
        query: { idProperty: 'email' },
        headers,
        json: { properties },
      });
      return { id: idOf(response.body), created: false };
    };
    try {
      return await update();
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    try {
      const response = await ctx.request({
        method: 'POST',
        url: under(params.apiBaseUrl, 'crm/v3/objects/contacts'),
        headers,
        json: { properties: { ...properties, email: params.email } },
      });
      return { id: idOf(response.body), created: true };
    } catch (error) {
      if (statusOf(error) === 409) return update();
      throw error;
    }
  },
});

function idOf(body: unknown): string {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw failure("HubSpot answered without the contact's id.", 'invalid_body');
  return String(id);
}
