import { randomUUID } from 'node:crypto';
import { Router } from 'express';

/** What the CRM routes remember: created users and received tracking events, in memory (a demo). */
export interface CrmState {
  readonly users: Map<string, { email: string; name: string; surname: string; interestedInProductIds: number[] }>;
  readonly trackingEvents: { event: string; userId: string; properties: unknown; receivedAt: string }[];
}

const EVENT_NAMES = [
  'Product launch webinar',
  'Customer meetup',
  'Hands-on workshop',
  'Quarterly review',
  'Community call',
];
const DAY = 24 * 60 * 60 * 1000;

/**
 * The customer's CRM as the demo plays it (spec 4.3's recommended shapes):
 *   GET  /users/:id/events   → [{id, name, date}] (ISO 8601), the same few events for the same id;
 *   POST /users              {email, name, surname, interestedInProductIds: number[]} → 201 {id};
 *   POST /tracking-events    {event, userId, properties?} → 202.
 * A user id starting with "fail-" answers 503, so the bot's error policy can be tried.
 */
export function crmRouter(state: CrmState = { users: new Map(), trackingEvents: [] }): {
  router: Router;
  state: CrmState;
} {
  const router = Router();

  router.get('/users/:id/events', (req, res) => {
    const userId = req.params.id;
    if (userId.startsWith('fail-')) {
      res.status(503).json({ error: { code: 'unavailable', message: 'The events service is down (a demo failure).' } });
      return;
    }
    // Deterministic per user and day, so a demo shows the same list twice in a row.
    let seed = 0;
    for (const char of userId) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
    const today = Math.floor(Date.now() / DAY) * DAY;
    const count = 3 + (seed % 3);
    const events = Array.from({ length: count }, (_, i) => ({
      id: `ev-${(seed % 1000) + i}`,
      name: EVENT_NAMES[(seed + i) % EVENT_NAMES.length],
      date: new Date(today + (i * 3 + 1 + (seed % 2)) * DAY + (17 + (i % 3)) * 60 * 60 * 1000).toISOString(),
    }));
    res.json(events);
  });

  router.post('/users', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const problems: string[] = [];
    if (typeof body.email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(body.email))
      problems.push('email must be an email address');
    if (typeof body.name !== 'string' || body.name.trim() === '') problems.push('name must be a non-empty text');
    if (typeof body.surname !== 'string' || body.surname.trim() === '')
      problems.push('surname must be a non-empty text');
    const ids = body.interestedInProductIds ?? [];
    if (!Array.isArray(ids) || !ids.every((n) => typeof n === 'number'))
      problems.push('interestedInProductIds must be a list of numbers');
    if (problems.length > 0) {
      res.status(400).json({ error: { code: 'invalid_body', message: `${problems.join('; ')}.` } });
      return;
    }
    const id = `u-${randomUUID().slice(0, 8)}`;
    state.users.set(id, {
      email: body.email as string,
      name: body.name as string,
      surname: body.surname as string,
      interestedInProductIds: ids as number[],
    });
    res.status(201).json({ id });
  });

  router.post('/tracking-events', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.event !== 'string' || body.event === '' || typeof body.userId !== 'string' || body.userId === '') {
      res.status(400).json({
        error: { code: 'invalid_body', message: 'Send {"event": "...", "userId": "...", "properties": {...}}.' },
      });
      return;
    }
    state.trackingEvents.push({
      event: body.event,
      userId: body.userId,
      properties: body.properties ?? null,
      receivedAt: new Date().toISOString(),
    });
    res.status(202).end();
  });

  return { router, state };
}
