import { runTurn } from '../engine/engine.ts';
import type { EngineInput, TurnResult } from '../engine/types.ts';
import type { TranscriptEntry } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { updateUserWithRetry } from './update-user.ts';

/**
 * Runs one engine turn for a user and carries out what it asks: the new state
 * is saved first, then the bot's messages are stored and pushed. Callers hold
 * the user's turn lock (deps.turns).
 */
export async function applyTurn(
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: { readonly userWrote: boolean },
): Promise<readonly TranscriptEntry[]> {
  let result: TurnResult | undefined;
  await updateUserWithRetry(deps.store, userId, now, (user) => {
    result = runTurn(deps.definition, user, input, deps.engine);
    return {
      position: result.state.position,
      variables: result.state.variables,
      userData: result.state.userData,
      ...(options.userWrote ? { lastMessageAt: now } : {}),
    };
  });
  if (!result) return [];
  await recordEffects(deps, userId, result, now);
  if (result.outputs.length === 0) return [];
  const entries = await deps.store.appendTranscript(
    userId,
    result.outputs.map((message) => ({ from: 'bot' as const, at: now, message })),
  );
  deps.delivery.deliver(userId, entries);
  return entries;
}

async function recordEffects(deps: AppDeps, userId: string, result: TurnResult, now: number): Promise<void> {
  for (const effect of result.effects) {
    if (effect.type === 'warn') {
      deps.logger.warn({ userId, code: effect.code, ...effect.detail }, warnings[effect.code]);
    } else if (effect.type === 'unprocessed') {
      await deps.store.appendLog('nlpLog', {
        userId,
        timestamp: now,
        data: {
          dialogId: effect.detail.dialogId,
          stepId: effect.detail.stepId,
          stepType: effect.detail.stepType,
          query: effect.detail.text,
          modelId: null,
          intent: null,
          result: null,
          processed: false,
        },
      });
    }
  }
}

const warnings = {
  missing_variable: 'a template names a variable that has no value; it rendered empty',
  step_limit: 'a turn ran more steps than allowed without input (a goto cycle?); the conversation was stopped',
} as const;
