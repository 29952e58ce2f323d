import type { BotSource, PreparedBot } from './load-bot.ts';
import { prepareBot } from './load-bot.ts';
import { DefinitionError } from '../definition/load.ts';
import { formatProblem } from '../definition/problem.ts';
import type { IntegrationRuntimeDeps } from '../integrations/run-integration.ts';
import type { Logger } from '../ports/logger.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { ServiceOutcome } from '../ports/bot-host.ts';

/** Sentence embeddings for the models a swap trains (EMBEDDINGS), and where a failing provider is said. */
export interface Understanding {
  readonly embeddings?: EmbeddingProvider & { readonly encoded: number };
  readonly warn?: (message: string) => void;
}

/** How a swap ended (the server's `reload()` answers it). */
export type ReloadOutcome = ServiceOutcome;

/** Where a bot put in service came from, for the log line and the listeners. */
export interface SwapOrigin {
  /** `file` for a reload of BOT_DEFINITION (SIGHUP, npm run dev); `studio` for a publish; `cluster` for a publish another node made. */
  readonly kind: string;
  /** What the log names: a file path, a version id. */
  readonly label: string;
  /**
   * Runs once the next bot is prepared and started, just before it goes in service (a publish
   * records itself here, so the store never names a version that failed to start). What it
   * returns is added to the bot (the version id a file import was given). Throwing refuses the swap.
   */
  readonly commit?: (next: PreparedBot) => Promise<Partial<Pick<BotSource, 'version' | 'moves'>> | void>;
}

/**
 * The bot in service: the definition, its models and its integration runtime, swapped whole
 * and one swap at a time. A reload of the file and a publish from the studio both come through
 * `swap`, so both run the same checks and neither can interleave with the other.
 */
export interface BotService {
  /** The bot serving turns now. */
  readonly current: PreparedBot;
  /**
   * Reads a source (with every check `chatbot check` runs), prepares and starts it, then swaps it
   * in. Anything that fails leaves the running bot in service and every problem is logged.
   */
  swap(read: () => Promise<BotSource>, origin: SwapOrigin): Promise<ReloadOutcome>;
  /** Called after each swap, before the previous runtime closes (deps, caches that read the definition). */
  onSwap(listener: (next: PreparedBot, previous: PreparedBot) => void): void;
  /** Takes no swap from now on (a later one answers "the server is closing"); resolves once a swap under way ended. */
  stopSwapping(): Promise<void>;
  /** Closes the runtime in service (after stopSwapping and the drain). */
  close(): Promise<void>;
}

export function botService(
  first: PreparedBot,
  runtimeDeps: Omit<IntegrationRuntimeDeps, 'stepTypes'>,
  logger: Logger,
  understanding: Understanding = {},
): BotService {
  let bot = first;
  let closing = false;
  let swapping: Promise<ReloadOutcome> = Promise.resolve({ ok: true });
  const listeners: Array<(next: PreparedBot, previous: PreparedBot) => void> = [];

  const refused = (error: unknown, origin: SwapOrigin): ReloadOutcome => {
    const problems =
      error instanceof DefinitionError ? [...error.problems] : [(error as Error).message ?? String(error)];
    for (const problem of problems)
      logger.error({ event: 'definition_reload_problem', file: origin.label, source: origin.kind, problem }, problem);
    logger.error(
      { event: 'definition_reload_failed', file: origin.label, source: origin.kind, problems: problems.length },
      'the bot definition was not put in service: it has problems (logged above); the running definition stays in service',
    );
    return { ok: false, problems };
  };

  const swapNow = async (read: () => Promise<BotSource>, origin: SwapOrigin): Promise<ReloadOutcome> => {
    let next: PreparedBot;
    const encodedBefore = understanding.embeddings?.encoded ?? 0;
    try {
      const source = await read();
      for (const problem of source.warnings)
        logger.warn({ event: 'definition_warning', path: problem.path }, formatProblem(problem));
      next = await prepareBot(source, runtimeDeps, understanding);
    } catch (error) {
      return refused(error, origin);
    }
    try {
      // Datasets load before the swap, so no turn queries a runtime that has not read them yet.
      await next.runtime.start();
    } catch (error) {
      await next.runtime.close().catch(() => undefined);
      return refused(error, origin);
    }
    if (closing) {
      await next.runtime.close();
      return { ok: false, problems: ['the server is closing'] };
    }
    try {
      const added = await origin.commit?.(next);
      if (added) next = { ...next, ...added };
    } catch (error) {
      await next.runtime.close().catch(() => undefined);
      return refused(error, origin);
    }
    const previous = bot;
    // One synchronous swap: the definition, its models and its integration caller change together
    // (a turn under way reads the new ones from its next read on).
    bot = next;
    for (const listener of listeners) listener(next, previous);
    await previous.runtime.close();
    logger.info(
      {
        event: 'definition_reloaded',
        file: origin.label,
        source: origin.kind,
        ...(next.version ? { version: next.version.id } : {}),
        bot: next.definition.settings.id,
        dialogs: next.definition.dialogs.length,
        // Texts the embedding provider encoded for this swap (the rest came from the cache).
        ...(understanding.embeddings ? { encoded: understanding.embeddings.encoded - encodedBefore } : {}),
      },
      'bot definition reloaded; conversations carry on with it',
    );
    return { ok: true };
  };

  return {
    get current() {
      return bot;
    },
    swap(read, origin) {
      // One at a time, in order: the last swap asked for is the one left in service.
      const run = () =>
        closing
          ? Promise.resolve<ReloadOutcome>({ ok: false, problems: ['the server is closing'] })
          : swapNow(read, origin);
      swapping = swapping.then(run, run);
      return swapping;
    },
    onSwap(listener) {
      listeners.push(listener);
    },
    async stopSwapping() {
      closing = true;
      await swapping.catch(() => undefined);
    },
    async close() {
      closing = true;
      await bot.runtime.close();
    },
  };
}
