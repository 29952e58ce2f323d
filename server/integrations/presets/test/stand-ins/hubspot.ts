import { json, startStandIn, text, type StandIn } from './stand-in.ts';

const correlationId = 'aeb5f871-7f07-4993-9211-075dc63e7cbf';

/**
 * HubSpot CRM API v3, contacts (developers.hubspot.com, "Update a contact" / "Create a contact",
 * "Handling errors"): PATCH /crm/v3/objects/contacts/{email}?idProperty=email and
 * POST /crm/v3/objects/contacts, Authorization: Bearer <private app token>, JSON {"properties": {…}}
 * with text values. 200/201 with {id, properties, createdAt, updatedAt, archived}; 404 when no contact
 * has the email; 409 when creating one that exists; 401 INVALID_AUTHENTICATION; 429 RATE_LIMIT; 502/504
 * when HubSpot's processing limits are hit.
 */
export async function startHubSpot(options: {
  token: string;
}): Promise<StandIn & { readonly contacts: Map<string, Record<string, string>> }> {
  const contacts = new Map<string, Record<string, string>>([
    ['ada@example.com', { email: 'ada@example.com', firstname: 'Ada' }],
  ]);
  const ids = new Map<string, string>([['ada@example.com', '512']]);
  const standIn = await startStandIn('hubspot', (req, mode, check) => {
    const url = new URL(req.url, 'http://stand-in');
    check.header('authorization', `Bearer ${options.token}`).header('content-type', /^application\/json/);
    const body = check.jsonBody();
    const properties = body.properties as Record<string, unknown> | undefined;
    check
      .that(
        !!properties && typeof properties === 'object' && !Array.isArray(properties),
        '"properties" must be an object',
      )
      .that(
        Object.values(properties ?? {}).every((v) => typeof v === 'string'),
        'property values are sent as strings',
      );
    if (mode === 'rate_limited') {
      return (res) =>
        json(res, 429, {
          status: 'error',
          message: 'You have reached your secondly limit.',
          errorType: 'RATE_LIMIT',
          correlationId,
          policyName: 'SECONDLY',
          groupName: 'publicapi:private-app-api-secondly:1234',
        });
    }
    if (mode === 'unauthorized') {
      return (res) =>
        json(res, 401, {
          status: 'error',
          message:
            'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
          correlationId,
          category: 'INVALID_AUTHENTICATION',
        });
    }
    if (mode === 'server_error') return (res) => text(res, 502, 'Bad Gateway');
    const contact = (id: string, props: Record<string, string>) => ({
      id,
      properties: props,
      createdAt: '2019-10-30T03:30:17.883Z',
      updatedAt: '2019-12-07T16:50:06.678Z',
      archived: false,
    });
    const byEmail = /^\/crm\/v3\/objects\/contacts\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'PATCH' && byEmail) {
      check.that(
        url.searchParams.get('idProperty') === 'email',
        'a contact addressed by email needs ?idProperty=email',
      );
      const email = decodeURIComponent(byEmail[1]!);
      const existing = contacts.get(email);
      if (!existing) {
        return (res) =>
          json(res, 404, {
            status: 'error',
            message: 'Object not found.  objectId are usually numeric.',
            correlationId,
            context: { id: [email] },
            category: 'OBJECT_NOT_FOUND',
          });
      }
      Object.assign(existing, properties);
      return (res) => json(res, 200, contact(ids.get(email)!, existing));
    }
    if (req.method === 'POST' && url.pathname === '/crm/v3/objects/contacts') {
      const email = String(properties?.email ?? '');
      check.that(email.includes('@'), 'a new contact needs its email among the properties');
      if (contacts.has(email)) {
        return (res) =>
          json(res, 409, {
            status: 'error',
            message: `Contact already exists. Existing ID: ${ids.get(email)}`,
            correlationId,
            category: 'CONFLICT',
          });
      }
      const id = String(600 + contacts.size);
      contacts.set(email, { ...(properties as Record<string, string>) });
      ids.set(email, id);
      return (res) => json(res, 201, contact(id, contacts.get(email)!));
    }
    check.that(false, `no such operation in the contacts API: ${req.method} ${url.pathname}`);
    return () => undefined;
  });
  return Object.assign(standIn, { contacts });
}
