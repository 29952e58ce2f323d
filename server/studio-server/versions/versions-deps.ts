import type { BotHost } from '../../ports/bot-host.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { RestingUsers } from '../../ports/resting-users.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import type { VersionAuthor, VersionsRoom } from '../../ports/versions.ts';

/** What the versions use cases need: the running bot (server/bot/) and the rooms versions are kept in; wired in server/start/. */
export interface VersionsDeps extends BotHost {
  readonly room: VersionsRoom;
  readonly resting: RestingUsers;
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly logger: Logger;
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
