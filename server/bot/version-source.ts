import type { BotDefinition } from '../definition/schema.ts';
import { readWritten, type BotSource } from './load-bot.ts';
import type { Move, StoredVersion, VersionsRoom } from '../ports/versions.ts';

/** Where stored versions are read, and what they are checked with: BOT_DEFINITION (step type modules are read next to it) and the env. */
export interface VersionReading {
  readonly room: VersionsRoom;
  readonly file: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** How far back publications are read for moves still in force; older moves are long served. */
const MOVE_HISTORY = 50;

const hasStep = (definition: BotDefinition, at: { dialogId: string; stepId: string }) =>
  definition.dialogs.some((d) => d.id === at.dialogId && d.steps.some((s) => s.id === at.stepId));

/**
 * The moves in force for a definition: `first` (a publish's own), then those of earlier
 * publications, newest first; only those whose position this definition lacks and whose target
 * it has, one per position. A user who rested through several publishes still goes where the
 * publish that removed their step said.
 */
export async function movesInForce(
  room: VersionsRoom,
  definition: BotDefinition,
  first: readonly Move[] = [],
): Promise<Move[]> {
  const earlier = (await room.publications(MOVE_HISTORY)).flatMap((publication) => publication.moves);
  const seen = new Set<string>();
  const out: Move[] = [];
  for (const move of [...first, ...earlier]) {
    const key = JSON.stringify([move.from.dialogId, move.from.stepId]);
    if (seen.has(key) || hasStep(definition, move.from) || !hasStep(definition, move.to)) continue;
    seen.add(key);
    out.push(move);
  }
  return out;
}

/** A stored version's definition as written; the room keeps canonical JSON. */
export function writtenOf(version: StoredVersion): unknown {
  return JSON.parse(version.definitionText) as unknown;
}

/** A stored version, checked as start-up checks the file, ready to put in service, with the moves in force. */
export async function sourceOfVersion(
  deps: VersionReading,
  version: StoredVersion,
  moves: readonly Move[] = [],
): Promise<BotSource> {
  const source = await readWritten(writtenOf(version), deps.file, `version ${version.id}`, deps.env);
  return {
    ...source,
    version: { id: version.id, hash: version.hash },
    moves: await movesInForce(deps.room, source.definition, moves),
  };
}
