import { Router } from 'express';
import { callerOf, requireRole } from '../http/studio-api.ts';
import { otherMethods } from '../http/other-methods.ts';
import { serveRoute } from '../http/studio-route.ts';
import type { ChannelSettings } from './channel-settings.ts';

/** Settings → Channels, owners only: the connectors' settings, changing the studio's, a test message. */
export function channelRoutes(channels: ChannelSettings): Router {
  const router = Router();
  const owners = { guard: requireRole('manageChannels') };
  serveRoute(router, 'listChannels', owners, () => channels.list());
  serveRoute(router, 'saveChannel', owners, async ({ params, body }, req) => {
    const caller = callerOf(req);
    return channels.save(params.connector, body.values, caller.actor, caller.ip);
  });
  serveRoute(router, 'testChannel', owners, async ({ params, body }, req) => {
    const caller = callerOf(req);
    return channels.test(params.connector, body, caller.actor, caller.ip);
  });
  // Behind the same guard: a caller who may not see the channels learns nothing of their paths.
  router.use(otherMethods(['listChannels', 'saveChannel', 'testChannel'], owners.guard));
  return router;
}
