import type { PreviewState } from '../../../shared/preview-protocol.ts';
import type { BotEvent } from '../../../shared/protocol.ts';
import type { PreparedBot } from '../../bot/load-bot.ts';
import type { BotTest } from '../../bot/tests/test-file.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Mailer } from '../../ports/mailer.ts';
import type { SmsSender } from '../../ports/sms-sender.ts';
import type { Store, TranscriptEntry } from '../../ports/store.ts';

/** What every author's preview shares: the server's store and the way a draft is prepared. */
export interface PreviewDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The author's own draft as written now, with its revision. */
  readonly draft: (accountId: string) => Promise<{ readonly written: unknown; readonly revision: number }>;
  /** The draft checked as `chatbot check` does and prepared on `store` with the dry-run gate; throws DefinitionError. */
  readonly prepare: (written: unknown, store: Store) => Promise<PreparedBot>;
  /** The env the definition reads (for the secrets masked wherever a request is shown). */
  readonly env: () => Readonly<Record<string, string | undefined>>;
  readonly mailer?: Mailer;
  readonly sms?: SmsSender;
  /** Adds a test to the bot's tests; answers how many there are now. */
  readonly saveTest: (test: BotTest, accountId: string) => Promise<number>;
}

/** Where the preview's chat and panel hear from it (the preview socket). */
export interface PreviewOutlets {
  state(state: PreviewState): void;
  entries(entries: readonly TranscriptEntry[]): void;
  typing(on: boolean): void;
  event(event: BotEvent): void;
}
