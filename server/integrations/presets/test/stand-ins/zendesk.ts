import { json, startStandIn, type StandIn } from './stand-in.ts';

/**
 * Zendesk Support, Tickets (developer.zendesk.com, "Create Ticket", "Security and authentication",
 * "Rate limits"): POST /api/v2/tickets.json with {"ticket": {"subject", "comment": {"body"}, …}},
 * Authorization: Basic base64("{email_address}/token:{api_token}"), optional Idempotency-Key.
 * 201 Created with {"ticket": {url, id, subject, status, …}} and a Location header; 401
 * {"error": "Couldn't authenticate you"}; 429 with Retry-After; 503 with Retry-After in maintenance.
 */
export async function startZendesk(options: { email: string; token: string; subdomain: string }): Promise<StandIn> {
  let next = 35436;
  return startStandIn('zendesk', (req, mode, check) => {
    const expected = `Basic ${Buffer.from(`${options.email}/token:${options.token}`).toString('base64')}`;
    check
      .method('POST')
      .that(req.url === '/api/v2/tickets.json', `path ${req.url}, the reference says /api/v2/tickets.json`)
      .header('content-type', /^application\/json/);
    const body = check.jsonBody();
    const ticket = body.ticket as Record<string, unknown> | undefined;
    const comment = ticket?.comment as Record<string, unknown> | undefined;
    check
      .that(!!ticket && typeof ticket === 'object', 'the body is {"ticket": {…}}')
      .that(typeof comment?.body === 'string' && comment.body !== '', 'a new ticket needs comment.body')
      .that(
        ticket?.priority === undefined || ['urgent', 'high', 'normal', 'low'].includes(String(ticket.priority)),
        'priority is urgent, high, normal or low',
      );
    check.header('authorization', expected);
    if (mode === 'unauthorized') return (res) => json(res, 401, { error: "Couldn't authenticate you" });
    if (mode === 'rate_limited')
      return (res) =>
        json(
          res,
          429,
          { error: 'APIRateLimitExceeded', description: 'Number of allowed API requests per minute exceeded' },
          { 'retry-after': '93' },
        );
    if (mode === 'server_error')
      return (res) =>
        json(
          res,
          503,
          { error: 'ServiceUnavailable', description: 'Zendesk is under maintenance' },
          { 'retry-after': '60' },
        );
    const id = next++;
    const url = `https://${options.subdomain}.zendesk.com/api/v2/tickets/${id}.json`;
    return (res) =>
      json(
        res,
        201,
        {
          ticket: {
            url,
            id,
            subject: ticket?.subject ?? null,
            description: comment?.body,
            status: 'new',
            priority: ticket?.priority ?? null,
            tags: ticket?.tags ?? [],
            requester_id: 20978392,
          },
        },
        { location: url },
      );
  });
}
