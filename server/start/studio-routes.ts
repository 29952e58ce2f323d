import type { Router } from 'express';
import type { AppDeps } from '../app/deps.ts';
import type { BotService } from '../bot/bot-service.ts';
import type { Config } from '../config.ts';
import type { CachedEmbeddings } from '../nlp/embeddings/embedding-cache.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import { channelRoutes } from '../studio-server/channels/channel-routes.ts';
import { channelSettings } from '../studio-server/channels/channel-settings.ts';
import { designerRoutes } from '../studio-server/designer/designer-routes.ts';
import { missesRoutes } from '../studio-server/http/misses-routes.ts';
import { versionsRoutes } from '../studio-server/http/versions-routes.ts';
import { channelPreviewRoutes } from '../studio-server/preview/channel-preview-routes.ts';
import type { VersionsDeps } from '../studio-server/versions/versions-deps.ts';
import { studioExportRoutes, studioInsightsRoutes, type Insights } from './insights.ts';
import { renderOnChannels } from './channel-previews.ts';
import { storeParts, type OpenedStore } from './open-store.ts';
import type { ConnectorWiring } from './connectors.ts';
import type { Studio } from './studio-server.ts';
import { designerDeps } from './studio-designer.ts';

/** The studio's parts behind its guard: versions, the designer, the preview's channel view, insights, the export, the channels and the misses. */
export async function studioRoutes(setup: {
  readonly config: Config;
  readonly store: OpenedStore;
  readonly studio: Studio;
  readonly bot: BotService;
  readonly versions: VersionsDeps;
  readonly insights: Insights;
  readonly embeddings: CachedEmbeddings | undefined;
  /** The vendors' connectors, for Settings → Channels. */
  readonly connectors: ConnectorWiring;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly baseUrl: () => string;
  /** The use cases' dependencies, built after the HTTP side; requests only arrive after listen(). */
  readonly deps: () => AppDeps;
}): Promise<Router[]> {
  const { config, store, studio, bot, versions, insights, clock } = setup;
  const presence = await storeParts(store).presence();
  return [
    versionsRoutes(() => versions),
    designerRoutes(designerDeps({ bot, presence, clock, baseUrl: setup.baseUrl })),
    channelPreviewRoutes({ render: (message) => renderOnChannels(message, config.PUBLIC_URL) }),
    studioInsightsRoutes({
      insights,
      store,
      audit: studio.audit,
      clock,
      windowMs: config.INSIGHTS_WINDOW,
      bot: () => bot.current,
      versions: () => versions.versions,
      deps: setup.deps,
    }),
    studioExportRoutes({ store, logger: setup.logger, bot: () => bot.current }),
    channelRoutes(
      channelSettings({
        secrets: studio.secrets,
        audit: studio.audit,
        connectors: setup.connectors,
        baseUrl: setup.baseUrl,
        publicUrlSet: config.PUBLIC_URL !== undefined,
        announce: () => studio.announce(),
      }),
    ),
    missesRoutes({
      store,
      versions: () => versions,
      now: () => clock.now(),
      embeddings: setup.embeddings,
      rowCap: config.INSIGHTS_MISSES_ROWS,
      groupedAtMost: config.INSIGHTS_MISSES_GROUPED,
    }),
  ];
}
