import { runTurn, understandingNeeded } from '../engine/engine.ts';
import type { EngineInput, TurnResult, Understanding } from '../engine/types.ts';
import type { TranscriptEntry, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { carryOutEffects, sendMessages } from './carry-out-effects.ts';
import { trackLinks } from './track-links.ts';

const MAX_ATTEMPTS = 8;

/**
 * Runs one engine turn for a user and carries out what it asks: models read
 * the text first (only when the turn needs them), snapshots are written, the
 * new state is saved, then logs, timers and events are recorded, the bot's
 * messages are stored and pushed, and email / SMS go out. Callers hold the
 * user's turn lock (deps.turns).
 */
export async function applyTurn(
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: {
    readonly userWrote: boolean;
    /** Entries to push together with the turn's first messages (one push instead of two). */
    readonly deliverFirst?: () => readonly TranscriptEntry[];
  },
): Promise<readonly TranscriptEntry[]> {
  const result = await commitTurn(deps, userId, input, now, options);
  if (!result) return [];
  await carryOutEffects(deps, userId, result.effects, now);
  const outputs = trackLinks(deps, userId, result.outputs);
  let entries: readonly TranscriptEntry[] = [];
  if (outputs.length > 0) {
    entries = await deps.store.appendTranscript(
      userId,
      outputs.map((message) => ({ from: 'bot' as const, at: now, message })),
    );
    deps.delivery.deliver(userId, options.deliverFirst ? [...options.deliverFirst(), ...entries] : entries);
  }
  // After the messages, so "Goodbye!" shows before a close-chat event runs.
  for (const effect of result.effects) {
    if (effect.type === 'botEvent') deps.delivery.event(userId, { name: effect.name, payload: effect.payload });
  }
  const failed = await sendMessages(deps, userId, result.effects, now);
  for (const step of failed) {
    const more = await applyTurn(deps, userId, { kind: 'failed', dialogId: step.dialogId, stepId: step.stepId }, deps.clock.now(), { userWrote: false });
    entries = [...entries, ...more];
  }
  return entries;
}

/**
 * Read, run, save with optimistic concurrency; redo on a conflict. Snapshots
 * are written before the state that clears the data, so a crash between the
 * two can duplicate a snapshot but never lose the data.
 */
async function commitTurn(
  deps: AppDeps,
  userId: string,
  input: EngineInput,
  now: number,
  options: { readonly userWrote: boolean },
): Promise<TurnResult | undefined> {
  let understood: EngineInput | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const user = await deps.store.getUser(userId);
    if (!user) throw new Error(`user ${userId} does not exist`);
    understood ??= await understand(deps, user, input);
    const result = runTurn(deps.definition, user, understood, deps.engine);
    const snapshots = result.effects.filter((e) => e.type === 'snapshotUserData');
    if (snapshots.length > 0) {
      await deps.store.appendLogs(
        'userDataSnapshot',
        snapshots.map((s) => ({ userId, timestamp: now, data: s.data })),
      );
    }
    const updated = await deps.store.updateUser(
      userId,
      user.version,
      {
        position: result.state.position,
        variables: result.state.variables,
        userData: result.state.userData,
        ...(options.userWrote ? { lastMessageAt: now } : {}),
      },
      now,
    );
    if (updated) return result;
  }
  throw new Error(`user ${userId} kept changing under ${MAX_ATTEMPTS} attempts to run a turn`);
}

/** Runs the intent classifier / FAQ matcher on the text when, and only when, the turn will use them. */
async function understand(deps: AppDeps, user: UserRecord, input: EngineInput): Promise<EngineInput> {
  if (input.kind !== 'text' && input.kind !== 'postback') return input;
  const needed = understandingNeeded(deps.definition, user, input);
  if (!needed.nlp && !needed.faq) return input;
  const text = input.kind === 'text' ? input.text : input.payload;
  const understanding: { -readonly [K in keyof Understanding]: Understanding[K] } = {};
  if (needed.nlp && deps.classifier) {
    try {
      understanding.nlp = await deps.classifier.classify(text);
    } catch (error) {
      deps.logger.error({ userId: user.userId, err: error }, 'the intent classifier failed; the text is treated as unprocessed');
    }
  }
  if (needed.faq && deps.faq) understanding.faq = deps.faq.match(text);
  return { ...input, understanding };
}
