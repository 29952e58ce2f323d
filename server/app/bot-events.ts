import type { BotDefinition } from '../definition/schema.ts';
import type { EngineInput, TurnResult } from '../engine/turn/types.ts';
import type { EventDraft } from '../ports/bot-events.ts';
import type { NewJob, UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';

/** What a turn did, as the events subscribers may hear about need it. */
export interface BotEventFacts {
  /** The user as stored before the turn (before a trigger's or page event's data was applied). */
  readonly before: UserRecord;
  readonly input: EngineInput;
  readonly result: TurnResult;
  /** The turn stores transcript entries (the user's message, the bot's answers). */
  readonly storesEntries: boolean;
  /** The turn is this trigger's run. */
  readonly trigger?: { readonly id: string };
  /** The seqs the turn's bot messages get (none when first > last). */
  readonly botEntries?: { readonly first: number; readonly last: number };
}

/**
 * The jobs that record a turn's events, for the turn's own commit (TurnCommit.jobs): the one place
 * a turn hands its events over, so it can move (to a turn outbox) as one piece. Nothing is derived
 * when no subscription wants any kind.
 */
export function turnEventJobs(
  deps: Pick<AppDeps, 'events' | 'definition'>,
  user: UserRecord,
  facts: BotEventFacts,
  now: number,
): readonly NewJob[] {
  const wanted = deps.events?.wanted();
  if (!deps.events || !wanted || wanted.size === 0) return [];
  const drafts = botEventsOf(deps.definition, facts).filter((draft) => wanted.has(draft.kind));
  const entries = facts.botEntries && facts.botEntries.first <= facts.botEntries.last ? facts.botEntries : undefined;
  return drafts.length > 0 ? deps.events.turnJobs(user, drafts, now, entries) : [];
}

/** The events of one turn, in the order they happened. Pure. */
export function botEventsOf(definition: BotDefinition, facts: BotEventFacts): EventDraft[] {
  const { before, input, result } = facts;
  const drafts: EventDraft[] = [];
  // A conversation starts with its first stored message, whoever says it.
  if (before.lastSeq === 0 && facts.storesEntries)
    drafts.push({
      kind: 'conversation.started',
      data: { via: input.kind === 'start' && facts.trigger ? 'trigger' : input.kind },
    });
  if (input.kind === 'integrationResult' && !input.ok) {
    const step = definition.dialogs.find((d) => d.id === input.dialogId)?.steps.find((s) => s.id === input.stepId);
    drafts.push({
      kind: 'integration.failed',
      data: {
        dialogId: input.dialogId,
        stepId: input.stepId,
        integration: step?.type === 'integration' ? step.integration : null,
        errorKind: input.error.kind,
        status: input.error.status ?? null,
        message: input.error.message,
        async: false,
      },
    });
  }
  // Before the dialogs: a trigger's data is there before its dialog starts, and an input saves its answer before the dialog goes on.
  const changed = userDataChange(before.userData, result.state.userData);
  if (changed) drafts.push({ kind: 'userData.changed', data: changed });
  for (const mark of result.trail) {
    if (mark.kind === 'dialogStarted') drafts.push({ kind: 'dialog.started', data: { dialogId: mark.dialogId } });
    else if (mark.kind === 'dialogCompleted')
      drafts.push({ kind: 'dialog.completed', data: { dialogId: mark.dialogId } });
    else
      drafts.push({
        kind: 'message.notUnderstood',
        data: { dialogId: mark.dialogId, stepId: mark.stepId, text: mark.text },
      });
  }
  if (facts.trigger && input.kind === 'start')
    drafts.push({ kind: 'trigger.finished', data: { triggerId: facts.trigger.id, dialogId: input.dialogId } });
  return drafts;
}

/** The fields whose value changed, with their new values (null for a field cleared); undefined when none did. */
export function userDataChange(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): { fields: string[]; values: Record<string, unknown> } | undefined {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .sort();
  if (fields.length === 0) return undefined;
  return { fields, values: Object.fromEntries(fields.map((field) => [field, after[field] ?? null])) };
}

/**
 * Records events that happen outside a turn (the page saving user data), after the write: a
 * crash between the two loses that one event, which a turn's events (stored with the turn) never are.
 */
export async function emitOutsideTurn(
  deps: Pick<AppDeps, 'events' | 'logger'>,
  user: Pick<UserRecord, 'userId' | 'channelId'>,
  drafts: readonly EventDraft[],
  now: number,
): Promise<void> {
  const wanted = deps.events?.wanted();
  const kept = drafts.filter((draft) => wanted?.has(draft.kind));
  if (!deps.events || kept.length === 0) return;
  try {
    await deps.events.emit(user, kept, now);
  } catch (error) {
    deps.logger.error(
      { event: 'bot_event_not_recorded', userId: user.userId, kinds: kept.map((d) => d.kind), err: error },
      'events of a change outside a turn could not be stored; subscribers miss them',
    );
  }
}
