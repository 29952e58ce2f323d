import type { AppDeps } from '../../app/deps.ts';
import { KeyedQueue } from '../../app/keyed-queue.ts';
import type { PreparedBot } from '../../bot/load-bot.ts';
import type { Store } from '../../ports/store.ts';
import type { PreviewDeps, PreviewOutlets } from './preview-deps.ts';
import { dryRunCaller, dryRunMailer, dryRunSms, type DryRunDeps } from './dry-run.ts';
import type { ConversationRecorder } from './recorder.ts';

/**
 * The use cases' deps for one preview: the prepared draft on the preview's store, what the bot says delivered to the
 * author's chat alone, and every outbound call (integrations, email, SMS) held as a dry run.
 */
export function previewApp(
  deps: PreviewDeps,
  preview: {
    readonly bot: PreparedBot;
    readonly store: Store;
    readonly userId: string;
    readonly dry: DryRunDeps;
    readonly recorder: ConversationRecorder;
    readonly out: PreviewOutlets;
  },
): AppDeps {
  const { bot, store, userId, dry, recorder, out } = preview;
  return {
    definition: bot.definition,
    store,
    clock: deps.clock,
    logger: deps.logger,
    delivery: {
      deliver: (to, entries) => {
        if (to === userId) out.entries(entries);
      },
      typing: (to, on) => {
        if (to === userId) out.typing(on);
      },
      event: (to, event) => {
        if (to === userId) out.event(event);
      },
      reach: () => 'live',
    },
    // A preview stores no durable jobs: its turns' outbox jobs run in memory (preview-jobs.ts), nothing else is scheduled.
    scheduler: { schedule: async () => undefined, cancel: async () => false },
    turns: new KeyedQueue(),
    ...(bot.classifier ? { classifier: bot.classifier } : {}),
    ...(bot.faq ? { faq: bot.faq } : {}),
    mailer: dryRunMailer(deps.mailer, dry),
    sms: dryRunSms(deps.sms, dry),
    integrations: dryRunCaller(bot.caller, dry, (step, result) => recorder.answered(step, result)),
  };
}
