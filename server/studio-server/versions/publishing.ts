import type { BotTestOutcome } from '../../../shared/bot-test-outcome.ts';
import { diffDefinitions, type Change } from '../../definition/diff.ts';
import type { Problem } from '../../definition/problem.ts';
import type { BotDefinition } from '../../definition/schema.ts';
import { recoveryFor } from '../../engine/recovery.ts';
import { strandedPositions } from '../../engine/stranded.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Stranded } from '../../../shared/studio-versions.ts';
import type { Move, Publication, StepRef, StoredVersion } from '../../ports/versions.ts';
import { versionOrThrow } from './editing.ts';
import { writtenOf } from '../../bot/version-source.ts';
import { authorOf, type Acting, type VersionsDeps } from './versions-deps.ts';

export type { Stranded };

export interface PublishPlan {
  readonly versionId: string;
  /** The version in service now; null when this node runs a bot the versions room does not know yet. */
  readonly liveVersionId: string | null;
  /** Publishing an earlier version than the live one: recorded as a rollback. */
  readonly rollback: boolean;
  /** Every problem `chatbot check` finds; an error blocks the publish. */
  readonly problems: readonly (Problem & { severity: 'error' | 'warning' })[];
  readonly diff: readonly Change[];
  readonly stranded: readonly Stranded[];
  /** The bot's tests run on this version, with `chatbot test`'s report of each; a failure blocks the publish as an error does. */
  readonly tests: readonly BotTestOutcome[];
}

export interface PublishRequest {
  readonly versionId: string;
  readonly moves: readonly Move[];
  readonly message?: string;
}

const key = (at: StepRef) => JSON.stringify([at.dialogId, at.stepId]);
const named = (at: StepRef) => `${at.dialogId}.${at.stepId}`;
const hasStep = (definition: BotDefinition, at: StepRef) =>
  definition.dialogs.some((d) => d.id === at.dialogId && d.steps.some((s) => s.id === at.stepId));

async function isRollback(deps: VersionsDeps, version: StoredVersion): Promise<boolean> {
  const liveId = deps.live().version?.id;
  const live = liveId ? await deps.room.getVersion(liveId) : null;
  return live !== null && version.number < live.number;
}

/** The publish plan: problems, the diff against the live version in words, and the stranded positions with their users. */
export async function publishPlan(deps: VersionsDeps, versionId: string): Promise<PublishPlan> {
  const version = await versionOrThrow(deps, versionId);
  const written = writtenOf(version);
  const live = deps.live();
  const checked = await deps.check(written, { tests: true });
  const problems = checked.problems.map((p) => ({ ...p, severity: p.severity ?? ('error' as const) }));
  const stranded = checked.definition ? await strandedWithUsers(deps, live.definition, checked.definition) : [];
  return {
    versionId,
    liveVersionId: live.version?.id ?? null,
    rollback: await isRollback(deps, version),
    problems,
    diff: diffDefinitions(live.written, written),
    stranded,
    tests: checked.tests ?? [],
  };
}

async function strandedWithUsers(deps: VersionsDeps, live: BotDefinition, next: BotDefinition): Promise<Stranded[]> {
  const positions = strandedPositions(live, next);
  const users = await deps.resting.countResting(positions.map((p) => p.from));
  return positions.map((p, i) => ({
    dialogId: p.from.dialogId,
    stepId: p.from.stepId,
    users: users[i] ?? 0,
    defaultTarget: p.to ? { dialogId: p.to.dialogId, stepId: p.to.stepId } : null,
  }));
}

/**
 * Publishes a version (an earlier one: a rollback): runs every check, takes the chosen target of
 * each stranded position (the default for the rest), puts it in service on this node between two
 * turns, records it, and tells the other nodes. Nothing is recorded when it cannot go in service.
 */
export async function publish(
  deps: VersionsDeps,
  request: PublishRequest,
  acting: Acting,
): Promise<{ publication: Publication; rollback: boolean }> {
  const version = await versionOrThrow(deps, request.versionId);
  const live = deps.live();
  if (live.version?.id === version.id)
    throw new HttpError(
      409,
      'already_live',
      `Version ${version.id} is live already; publish another version, or save a change first.`,
      { versionId: version.id },
    );
  // The bot's tests run before anything is put in service; a rollback runs them too (the tests may have grown since).
  const checked = await deps.check(writtenOf(version), { tests: true });
  if (!checked.definition) {
    const problems = checked.problems.map((p) => ({ ...p, severity: p.severity ?? 'error' }));
    throw new HttpError(
      422,
      'definition_invalid',
      `Version ${version.id} has ${problems.filter((p) => p.severity === 'error').length} problem(s) that block publishing; fix them and save a new version.`,
      { problems },
    );
  }
  const failed = (checked.tests ?? []).filter((t) => !t.passed);
  if (failed.length > 0) {
    throw new HttpError(
      422,
      'tests_failed',
      `${failed.length} of the bot's tests fail on version ${version.id}, so it was not published; the publish plan shows each as chatbot test reports it.`,
      { tests: failed },
    );
  }
  const moves = chosenMoves(live.definition, checked.definition, request.moves);
  const rollback = await isRollback(deps, version);
  let recorded: Publication | undefined;
  const outcome = await deps.putInService({
    version,
    moves,
    kind: 'studio',
    commit: async () => {
      recorded = await deps.room.publish({
        versionId: version.id,
        previousId: live.version?.id ?? null,
        at: deps.clock.now(),
        by: authorOf(acting),
        kind: rollback ? 'rollback' : 'publish',
        moves,
        ...(request.message ? { message: request.message } : {}),
      });
    },
  });
  if (!outcome.ok || !recorded) {
    // What failed is the server's (a dataset that would not load, the server closing): logged for the operator, not shown here.
    throw new HttpError(
      503,
      'publish_failed',
      `Version ${version.id} could not be put in service, so nothing was published; ${live.version?.id ?? 'the running version'} stays live. The server log says why; try again once it is fixed.`,
    );
  }
  deps.announce(version.id);
  await deps.audit.record({
    actor: acting.actor,
    ...(acting.ip ? { ip: acting.ip } : {}),
    action: rollback ? 'rolled_back' : 'published',
    target: version.id,
    details: {
      previous: live.version?.id ?? null,
      moves: moves.map((m) => ({ from: named(m.from), to: named(m.to) })),
      ...(request.message ? { message: request.message } : {}),
    },
  });
  return { publication: recorded, rollback };
}

/**
 * Every stranded position with its target: the one asked for, else the default (settings.recovery).
 * A move from a position nobody would be stranded on, or to a step the version lacks, is refused.
 */
function chosenMoves(live: BotDefinition, next: BotDefinition, asked: readonly Move[]): Move[] {
  const stranded = strandedPositions(live, next);
  const strandedKeys = new Set(stranded.map((s) => key(s.from)));
  const chosen = new Map<string, Move>();
  for (const move of asked) {
    if (!strandedKeys.has(key(move.from))) {
      throw new HttpError(
        400,
        'invalid_move',
        `No user would be stranded on ${named(move.from)}: it is not a step the live version has and this one removes. Move only the positions the publish plan lists.`,
        { from: move.from },
      );
    }
    if (!hasStep(next, move.to)) {
      throw new HttpError(
        400,
        'invalid_move',
        `The target ${named(move.to)} is not a step of the version being published; choose one of its steps.`,
        { to: move.to },
      );
    }
    if (chosen.has(key(move.from)))
      throw new HttpError(400, 'invalid_move', `${named(move.from)} has two targets; give each position one.`, {
        from: move.from,
      });
    chosen.set(key(move.from), { from: { ...move.from }, to: { ...move.to } });
  }
  return stranded.flatMap((s) => {
    const move = chosen.get(key(s.from));
    if (move) return [move];
    const to = recoveryFor(next, { ...s.from, awaiting: true, retries: 0 })?.to;
    return to ? [{ from: s.from, to: { dialogId: to.dialogId, stepId: to.stepId } }] : [];
  });
}
