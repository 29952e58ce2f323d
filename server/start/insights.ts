import { Router } from 'express';
import { exportRouter } from '../api/management/export-router.ts';
import type { AppDeps } from '../app/deps.ts';
import { eraseUser } from '../app/erase-user.ts';
import { InsightsRecorder } from '../app/insights/recorder.ts';
import type { BotDefinition } from '../definition/schema.ts';
import type { Store } from '../ports/store.ts';
import type { AuditTrail } from '../ports/audit.ts';
import type { VersionsStore } from '../ports/versions.ts';
import { insightsRoutes } from '../studio-server/http/insights-routes.ts';
import { requireRole } from '../studio-server/http/studio-api.ts';
import type { Clock } from '../ports/clock.ts';
import type { InsightsStore } from '../ports/insights.ts';
import type { Logger } from '../ports/logger.ts';
import { storeParts, type OpenedStore } from './open-store.ts';

export interface InsightsSetup {
  /** false: the store opens (the studio still reads it) but no turn records anything. */
  readonly enabled: boolean;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly windowMs: number;
  /** Conversations one search reads at most (INSIGHTS_SEARCH_BUDGET). */
  readonly searchBudget?: number;
  /** The published version in service now. */
  readonly version: () => string;
}

export interface Insights {
  readonly store: InsightsStore;
  readonly recorder?: InsightsRecorder;
}

/** The insights store on the store's own connection, and the recorder turns report to. */
export async function openInsights(store: OpenedStore, setup: InsightsSetup): Promise<Insights> {
  const options = setup.searchBudget === undefined ? {} : { searchBudget: setup.searchBudget };
  const kept = await storeParts(store).insights(options);
  if (!setup.enabled) return { store: kept };
  const recorder = new InsightsRecorder({
    store: kept,
    logger: setup.logger,
    now: () => setup.clock.now(),
    version: setup.version,
    userOf: async (userId) => {
      const user = await store.getUser(userId);
      return user ? { preview: user.preview !== undefined, channel: user.channelId } : undefined;
    },
    windowMs: setup.windowMs,
  });
  return { store: kept, recorder };
}

export interface InsightsRoutesSetup {
  readonly insights: Insights;
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly windowMs: number;
  /** The bot in service (its version and definition). */
  readonly bot: () => { readonly definition: BotDefinition; readonly version?: { readonly id: string } };
  /** The versions store, for the steps of a version not in service. */
  readonly versions: () => VersionsStore;
  /** The application's deps, for the erasure (built after the HTTP side). */
  readonly deps: () => AppDeps;
}

/** The studio's insights routes, wired to the insights store, the Store and the bot in service. */
export function studioInsightsRoutes(setup: InsightsRoutesSetup): Router {
  return insightsRoutes({
    insights: setup.insights.store,
    store: setup.store,
    audit: setup.audit,
    now: () => setup.clock.now(),
    windowMs: setup.windowMs,
    currentVersion: () => setup.bot().version?.id ?? 'unversioned',
    stepsOf: async (versionId) => {
      const live = setup.bot();
      if ((live.version?.id ?? 'unversioned') === versionId) return stepsIn(live.definition);
      const stored = await setup.versions().getVersion(versionId);
      if (!stored) return null;
      try {
        return stepsIn(JSON.parse(stored.definitionText) as unknown);
      } catch {
        return [];
      }
    },
    userDataFields: () => setup.bot().definition.userDataFields,
    erase: async (userId) => eraseUser(setup.deps(), userId),
  });
}

/** A definition's steps in order, read defensively (a stored version is any JSON that passed its checks once). */
function stepsIn(definition: unknown): { dialogId: string; stepId: string }[] {
  const dialogs = (definition as { dialogs?: unknown }).dialogs;
  if (!Array.isArray(dialogs)) return [];
  const steps: { dialogId: string; stepId: string }[] = [];
  for (const dialog of dialogs as { id?: unknown; steps?: unknown }[]) {
    if (typeof dialog?.id !== 'string' || !Array.isArray(dialog.steps)) continue;
    for (const step of dialog.steps as { id?: unknown }[])
      if (typeof step?.id === 'string') steps.push({ dialogId: dialog.id, stepId: step.id });
  }
  return steps;
}

/**
 * The management API's exports (the spec's eight and the transcript), downloadable from the studio
 * at /studio/api/export/{name} with the same filters and formats: personal data, so owners and
 * analysts only. The bot in service gives the user-data fields, read at each request.
 */
export function studioExportRoutes(setup: {
  readonly store: Store;
  readonly logger: Logger;
  readonly bot: () => { readonly definition: BotDefinition };
}): Router {
  const router = Router();
  const deps = {
    store: setup.store,
    logger: setup.logger,
    get definition() {
      return setup.bot().definition;
    },
  };
  router.use('/export', requireRole('readConversations'));
  router.use(exportRouter(deps));
  return router;
}
