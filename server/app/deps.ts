import type { BotDefinition } from '../definition/schema.ts';
import type { EngineOptions } from '../engine/engine.ts';
import type { Clock } from '../ports/clock.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { Logger } from '../ports/logger.ts';
import type { Scheduler } from '../ports/scheduler.ts';
import type { Store } from '../ports/store.ts';
import type { KeyedQueue } from './keyed-queue.ts';

/** What the use cases need from the outside world, wired once by main.ts. */
export interface AppDeps {
  readonly definition: BotDefinition;
  readonly store: Store;
  readonly clock: Clock;
  readonly delivery: Delivery;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  /** Serialises each user's turns. */
  readonly turns: KeyedQueue;
  readonly engine?: EngineOptions;
}
