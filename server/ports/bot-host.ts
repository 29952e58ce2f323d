import type { BotTestOutcome } from '../../shared/bot-test-outcome.ts';
import type { Problem } from '../definition/problem.ts';
import type { BotDefinition } from '../definition/schema.ts';
import type { Move, StoredVersion } from './versions.ts';

/** The bot serving turns on this node, as the studio reads it. */
export interface LiveBot {
  readonly definition: BotDefinition;
  /** The definition as written (before defaults and the environment): what versions hash, export and compare. */
  readonly written: unknown;
  /** The stored version this is; absent until the versions room knows it. */
  readonly version?: { readonly id: string; readonly hash: string };
  /** Where users resting on steps this version no longer has go, as chosen at publish. */
  readonly moves?: readonly Move[];
}

/** What every check `chatbot check` runs found in a definition as written. */
export interface CheckedDefinition {
  /** The definition, ready to run; absent when any problem is an error. */
  readonly definition?: BotDefinition;
  /** Every problem found, errors and warnings, in file order per check. */
  readonly problems: readonly Problem[];
  /** The bot's kept tests run on it, with `chatbot test`'s report of each (asked for with `tests`; none when it has errors). */
  readonly tests?: readonly BotTestOutcome[];
}

/** How putting a bot in service ended on this node. */
export type ServiceOutcome = { readonly ok: true } | { readonly ok: false; readonly problems: readonly string[] };

/** A stored version to put in service. */
export interface ServiceRequest {
  readonly version: StoredVersion;
  /** The publish's own moves; those of earlier publications still in force are added. */
  readonly moves?: readonly Move[];
  /** What the log names as its origin: `studio` for a publish, `cluster` for one another node made. */
  readonly kind: string;
  /**
   * Runs once the version is prepared and started, just before it goes in service (a publish records
   * itself here, so the store never names a version that failed to start). Throwing refuses it.
   */
  readonly commit?: () => Promise<void>;
}

/**
 * The running bot, as the studio and the command line use it: the bot in service, the checks and
 * tests a definition passes before it may run, putting a stored version in service between two
 * turns, and telling the other nodes (server/bot/).
 */
export interface BotHost {
  /** The bot in service on this node. */
  live(): LiveBot;
  /** Every check `chatbot check` runs, on a definition as written; with `tests`, the bot's kept tests too. */
  check(written: unknown, options?: { readonly tests?: boolean }): Promise<CheckedDefinition>;
  /** Puts a stored version in service on this node; anything that fails leaves the running bot in service. */
  putInService(request: ServiceRequest): Promise<ServiceOutcome>;
  /** Tells the other nodes that the published version changed (cluster mode); nothing on a single node. */
  announce(versionId: string): void;
}

/** A node's signals to the others (cluster mode: Redis publish/subscribe). */
export interface NodeSignals {
  readonly nodeId: string;
  publish(topic: string, message: string): Promise<unknown>;
  subscribe(topic: string, listener: (message: string) => void): Promise<unknown>;
}
