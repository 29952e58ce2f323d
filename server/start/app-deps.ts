import { hostname } from 'node:os';
import type { AppDeps } from '../app/deps.ts';
import { KeyedQueue } from '../app/keyed-queue.ts';
import { LeasedTurns } from '../app/turn-lease.ts';
import type { Cluster } from '../cluster/cluster.ts';
import type { Logger } from '../ports/logger.ts';
import type { BotService } from '../bot/bot-service.ts';
import type { PreparedBot } from '../bot/load-bot.ts';

/** What the use cases read of the bot in service: swapped together. */
type FromBot = Pick<AppDeps, 'definition' | 'moves' | 'classifier' | 'faq' | 'integrations'>;

const fromBot = (bot: PreparedBot): FromBot => ({
  definition: bot.definition,
  moves: bot.moves ?? [],
  classifier: bot.classifier,
  faq: bot.faq,
  integrations: bot.caller,
});

/**
 * The use cases' dependencies, following the bot in service: everything that reads the definition
 * reads it through these deps or the bot, and a swap changes them together.
 */
export function liveAppDeps(bot: BotService, rest: Omit<AppDeps, keyof FromBot>): AppDeps {
  const deps: { -readonly [K in keyof AppDeps]: AppDeps[K] } = { ...rest, ...fromBot(bot.current) };
  bot.onSwap((next) => Object.assign(deps, fromBot(next)));
  return deps;
}

/**
 * One user's turns one after the other. In a cluster they also wait on the user's lease in Redis, so a
 * trigger on one node and a message on another run one after the other; the store's version check stays the guarantee.
 */
export function turnQueue(cluster: Cluster | undefined, logger: Logger): AppDeps['turns'] {
  return cluster
    ? new LeasedTurns(cluster.turnLeases, { owner: `${hostname()}:${process.pid}`, logger })
    : new KeyedQueue();
}
