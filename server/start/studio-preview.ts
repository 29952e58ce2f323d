import type { Server } from 'socket.io';
import { prepareBot, readWritten } from '../bot/load-bot.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { SmsSender } from '../ports/sms-sender.ts';
import type { BotTestsRoom } from '../ports/bot-tests.ts';
import type { AppDeps } from '../app/deps.ts';
import { PREVIEW_SWEEP_JOB, previewSweepJobHandler, sweepPreviewUsers } from '../jobs/handlers/preview-sweep.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import type { PreviewUsers } from '../ports/preview.ts';
import type { Store } from '../ports/store.ts';
import { addBotTest } from '../studio-server/preview/bot-tests.ts';
import { dryRunGate } from '../studio-server/preview/dry-run.ts';
import { attachPreview } from '../studio-server/preview/preview-socket.ts';
import { readDraft } from '../studio-server/versions/editing.ts';
import type { VersionsDeps } from '../studio-server/versions/versions-deps.ts';
import type { Studio } from './studio-server.ts';

/**
 * The studio's preview on the socket.io server: each author's draft on the engine, as a preview
 * user of theirs, with integration calls, email and SMS held as dry runs (server/studio-server/preview/).
 * Its integration layer counts in no metric and writes no log (the preview store drops log rows).
 */
export function wirePreview(
  io: Server,
  options: {
    readonly store: Store;
    readonly studio: Studio;
    readonly versions: () => VersionsDeps;
    readonly tests: BotTestsRoom;
    readonly file: string;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly allowedHosts?: readonly string[] | undefined;
    readonly mailer?: Mailer | undefined;
    readonly sms?: SmsSender | undefined;
  },
): ReturnType<typeof attachPreview> {
  const { studio, clock, logger } = options;
  return attachPreview(io, {
    signedIn: (cookie) => studio.signedIn(cookie),
    origins: studio.origins,
    deps: {
      store: options.store,
      clock,
      logger,
      async draft(accountId) {
        const draft = await readDraft(options.versions(), { actor: { kind: 'account', accountId } });
        return { written: draft.definition, revision: draft.revision };
      },
      async prepare(written, store) {
        const source = await readWritten(written, options.file, 'your draft', studio.env);
        return prepareBot(source, {
          store,
          clock,
          logger,
          env: studio.env,
          gate: dryRunGate,
          ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
        });
      },
      env: () => studio.env,
      ...(options.mailer ? { mailer: options.mailer } : {}),
      ...(options.sms ? { sms: options.sms } : {}),
      saveTest: (test, accountId) => addBotTest(options.tests, test, accountId, () => clock.now()),
    },
  });
}

/**
 * Preview users a crash left behind: erased hourly once idle (the sweep job, on any node), and at
 * once at start-up when this process is alone on the store (no cluster), since none of its own
 * previews can be running yet.
 */
export async function sweepPreviews(
  jobs: JobRunner,
  options: {
    readonly previews: PreviewUsers;
    readonly app: Pick<AppDeps, 'store' | 'turns' | 'logger' | 'clock'>;
    readonly preview: ReturnType<typeof attachPreview>;
    readonly alone: boolean;
  },
): Promise<void> {
  const sweep = {
    previews: options.previews,
    app: options.app,
    running: () =>
      new Set([...options.preview.previews.values()].flatMap((running) => (running.userId ? [running.userId] : []))),
  };
  jobs.register(PREVIEW_SWEEP_JOB, previewSweepJobHandler(sweep));
  if (!options.alone) return;
  const erased = await sweepPreviewUsers(sweep, Number.MAX_SAFE_INTEGER);
  if (erased > 0)
    options.app.logger.info(
      { event: 'preview_users_swept', erased, atStart: true },
      'studio preview users left behind by the last run were erased',
    );
}
