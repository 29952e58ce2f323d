import type { BotDefinition } from '../../definition/schema.ts';
import type { BotTestOutcome } from '../../../shared/bot-test-outcome.ts';
import type { CheckResult } from '../../cli/check-definition.ts';
import type { BotSource, PreparedBot } from '../../load-bot.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { RestingUsers } from '../../ports/resting-users.ts';
import type { AuditActor, AuditTrail } from '../../ports/studio/audit.ts';
import type { VersionAuthor, VersionsRoom } from '../../ports/studio/versions.ts';

/** How putting a bot in service ended on this node (start/bot-service.ts). */
export type ServiceOutcome = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

/** What the versions use cases need; wired in server/start/studio.ts. */
export interface VersionsDeps {
  readonly room: VersionsRoom;
  readonly resting: RestingUsers;
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly logger: Logger;
  /** BOT_DEFINITION: step type modules are read next to it, whichever version runs. */
  readonly file: string;
  /** Where the definition's named variables are read (durationEnv, integration secrets). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Every check `chatbot check` runs, on a definition as written. */
  readonly check: (written: unknown) => Promise<CheckResult>;
  /** The bot in service on this node. */
  readonly live: () => BotSource;
  /**
   * Puts a bot in service on this node between two turns (BotService.swap): `commit` runs once it
   * is ready, before the swap, and may add the version it was given.
   */
  readonly putInService: (
    read: () => Promise<BotSource>,
    origin: {
      readonly kind: string;
      readonly label: string;
      readonly commit?: (next: PreparedBot) => Promise<Partial<Pick<BotSource, 'version' | 'moves'>> | void>;
    },
  ) => Promise<ServiceOutcome>;
  /**
   * Runs the bot's tests (the studio keeps them; the preview's "Save as test" adds to them) on a
   * checked definition, as `chatbot test` does; none run when absent.
   */
  readonly runTests?: (checked: {
    readonly definition: BotDefinition;
    readonly stepTypes: NonNullable<CheckResult['stepTypes']>;
  }) => Promise<readonly BotTestOutcome[]>;
  /** Tells the other nodes that the published version changed (cluster mode); nothing on a single node. */
  readonly announce: (versionId: string) => void;
}

/** Who acts, and from where, as the studio's guard established it. */
export interface Acting {
  readonly actor: AuditActor;
  /** The account's name for the version list; its email when absent. */
  readonly name?: string;
  readonly ip?: string;
}

/** The author a version or publication records for an actor. */
export function authorOf(acting: Acting): VersionAuthor {
  const { actor } = acting;
  const name = acting.name ?? actor.email;
  return {
    kind: actor.kind,
    ...(actor.accountId ? { accountId: actor.accountId } : {}),
    ...(actor.email ? { email: actor.email } : {}),
    ...(name ? { name } : {}),
  };
}
