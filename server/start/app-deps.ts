import type { AppDeps } from '../app/deps.ts';
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
