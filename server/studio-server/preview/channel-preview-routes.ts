import { Router } from 'express';
import type { BotMessage } from '../../../shared/protocol.ts';
import type { ChannelRendering } from '../../../shared/studio-channel-preview.ts';
import { otherMethods } from '../http/other-methods.ts';
import { requireRole } from '../http/studio-api.ts';
import { serveRoute } from '../http/studio-route.ts';

export interface ChannelPreviewDeps {
  /**
   * One bot message through each vendor connector's rendering ladder, as its user reads it. Given by
   * the composition root, which knows the connectors (the studio imports no channel).
   */
  readonly render: (message: BotMessage) => readonly ChannelRendering[];
}

/**
 * The preview's channel view under /studio/api: the designer's preview posts the bot's last message
 * and sees it as Telegram, WhatsApp, SMS, Slack, Messenger and Teams show it, beside the web chat.
 * Nothing is sent or stored; any role that may read the bot may ask.
 */
export function channelPreviewRoutes(deps: ChannelPreviewDeps): Router {
  const router = Router();
  const read = { guard: requireRole('readBot') };
  serveRoute(router, 'previewChannels', read, ({ body }, _req, res) => {
    res.set('cache-control', 'no-store');
    return { channels: deps.render(body.message) };
  });
  router.use(otherMethods(['previewChannels'], read.guard));
  return router;
}
