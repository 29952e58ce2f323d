import type { Clock } from '../../ports/clock.ts';
import { dayOf, type InsightsStore, type Metric } from '../../ports/insights.ts';
import type { Logger } from '../../ports/logger.ts';
import type { RetentionCutoffs } from '../../ports/personal-data.ts';
import type { Scheduler } from '../../ports/scheduler.ts';
import { LOG_KINDS, type LogKind, type Store } from '../../ports/store.ts';
import type { JobHandler } from '../job-runner.ts';

/** The job kind, and the one id it runs under: one retention job per store, whichever node holds it. */
export const RETENTION_JOB = 'retention';
/** How often records are purged: an hour late at most, and each run removes only an hour's worth. */
export const RETENTION_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Days to keep each kind of record; an absent kind is kept until erased. */
export interface RetentionSettings {
  readonly transcriptDays?: number;
  readonly logDays?: Readonly<Partial<Record<LogKind, number>>>;
  /** The studio's audit trail (RETENTION_AUDIT_DAYS only: RETENTION_LOG_DAYS does not cover it). */
  readonly auditDays?: number;
}

/** RETENTION_* settings by log kind: the kind's own, else RETENTION_LOG_DAYS. */
export function retentionSettings(config: Readonly<Record<string, unknown>>): RetentionSettings {
  const days = (name: string) => (typeof config[name] === 'number' ? config[name] : undefined);
  const logDays: Partial<Record<LogKind, number>> = {};
  for (const kind of LOG_KINDS) {
    const own = days(`RETENTION_${kind.replace(/([A-Z])/g, '_$1').toUpperCase()}_DAYS`) ?? days('RETENTION_LOG_DAYS');
    if (own !== undefined) logDays[kind] = own;
  }
  return { transcriptDays: days('RETENTION_TRANSCRIPT_DAYS'), logDays, auditDays: days('RETENTION_AUDIT_DAYS') };
}

export function hasRetention(settings: RetentionSettings): boolean {
  return (
    settings.transcriptDays !== undefined ||
    Object.keys(settings.logDays ?? {}).length > 0 ||
    settings.auditDays !== undefined
  );
}

export function cutoffsAt(settings: RetentionSettings, now: number): RetentionCutoffs {
  const logsBefore: Partial<Record<LogKind, number>> = {};
  for (const [kind, days] of Object.entries(settings.logDays ?? {}) as [LogKind, number][])
    logsBefore[kind] = now - days * DAY_MS;
  return {
    transcriptBefore: settings.transcriptDays === undefined ? undefined : now - settings.transcriptDays * DAY_MS,
    logsBefore,
  };
}

/**
 * Purges what is older than the settings, then puts itself back for the next hour:
 * one durable job that outlives restarts and, with several nodes, runs on one at a time.
 */
export function retentionJobHandler(deps: {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly settings: RetentionSettings;
  /** Insights keep conversation summaries (the user's words) as long as the transcript, and the texts of misses as long as the NLP and FAQ logs. */
  readonly insights?: Pick<InsightsStore, 'purge'>;
  /** The audit trail's purge (a store of its own, not the Store). */
  readonly audit?: { purgeAuditBefore(before: number): Promise<number> };
}): JobHandler {
  return async () => {
    if (!hasRetention(deps.settings)) return;
    const now = deps.clock.now();
    const cutoffs = cutoffsAt(deps.settings, now);
    const purged = await deps.store.purgeOlderThan(cutoffs);
    let insights: { conversations: number; counters: number } | undefined;
    if (deps.insights) {
      // Texts users wrote go with the log they came from; a counter's day goes once the whole day is past the cut-off.
      const texts: Partial<Record<Metric, number>> = {};
      const nlp = cutoffs.logsBefore?.nlpLog;
      const faq = cutoffs.logsBefore?.fuzzyQuestionAnswerLog;
      if (nlp !== undefined) texts.unprocessed = dayOf(nlp);
      if (faq !== undefined) texts.faqMiss = dayOf(faq);
      insights = await deps.insights.purge(cutoffs.transcriptBefore, texts);
    }
    const audit =
      deps.settings.auditDays !== undefined && deps.audit
        ? await deps.audit.purgeAuditBefore(now - deps.settings.auditDays * DAY_MS)
        : 0;
    deps.logger.info(
      {
        event: 'retention_purged',
        transcript: purged.transcript,
        logs: purged.logs,
        audit,
        ...(insights ? { insights } : {}),
      },
      'records older than the retention settings were removed',
    );
    return { deferUntil: now + RETENTION_EVERY_MS };
  };
}

/**
 * At start-up: with retention set, makes sure the job exists and runs soon (a pending
 * one is moved to now, a running one is left to its node); without, cancels it.
 */
export async function scheduleRetention(
  scheduler: Pick<Scheduler, 'schedule' | 'cancel'>,
  settings: RetentionSettings,
  now: number,
): Promise<void> {
  if (!hasRetention(settings)) {
    await scheduler.cancel(RETENTION_JOB);
    return;
  }
  await scheduler.schedule({ id: RETENTION_JOB, kind: RETENTION_JOB, payload: {}, runAt: now, maxAttempts: 5 });
}
