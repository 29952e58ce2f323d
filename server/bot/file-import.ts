import path from 'node:path';
import { canonicalText, hashOfCanonicalText } from '../definition/canonical.ts';
import type { BotSource } from './load-bot.ts';
import { movesInForce, sourceOfVersion, type VersionReading } from './version-source.ts';
import type { AuditTrail } from '../ports/audit.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';

/**
 * Where BOT_DEFINITION and the studio meet (README, "One source of truth"):
 * - the file seeds the first version, published as "from the file";
 * - a start or reload whose file changed (by content hash, whatever its key order or format)
 *   imports it as a new version and publishes it;
 * - a start or reload with the file as last seen changes nothing: what the studio published
 *   since stays live;
 * - nothing is deleted: a studio version the file replaced stays in the history.
 */

/** What the file brings, decided before the bot is prepared; recorded by `commit` once it is ready to go in service. */
export interface FilePlan {
  readonly source: BotSource;
  /** True when the file brings content the published version does not have. */
  readonly imports: boolean;
  commit(): Promise<{ readonly version: { readonly id: string; readonly hash: string } }>;
}

/** Thrown when another node published between the plan and its commit; the caller reads the published version again. */
export class PublishedMeanwhile extends Error {
  override readonly name = 'PublishedMeanwhile';
}

/** The versions room and BOT_DEFINITION, with what an import records and logs. */
export interface FileDeps extends VersionReading {
  readonly audit: AuditTrail;
  readonly clock: Clock;
  readonly logger: Logger;
}

export async function planFile(deps: FileDeps, file: BotSource): Promise<FilePlan> {
  const { room } = deps;
  const text = canonicalText(file.written);
  const hash = hashOfCanonicalText(text);
  const [published, seen] = await Promise.all([room.published(), room.fileSeen()]);
  const live = published ? await room.getVersion(published.versionId) : null;
  if (live && (seen === hash || live.hash === hash)) {
    const version = { id: live.id, hash: live.hash };
    const source =
      live.hash === hash
        ? { ...file, version, moves: await movesInForce(room, file.definition) }
        : await sourceOfVersion(deps, live);
    return {
      source,
      imports: false,
      async commit() {
        if (seen !== hash) await room.markFileSeen(hash, deps.clock.now());
        return { version };
      },
    };
  }
  return {
    source: { ...file, moves: await movesInForce(room, file.definition) },
    imports: true,
    commit: () => importFile(deps, text, hash),
  };
}

/** Records the file as a new version and publishes it, once across every node sharing the store. */
async function importFile(
  deps: FileDeps,
  text: string,
  hash: string,
): Promise<{ version: { id: string; hash: string } }> {
  const { room } = deps;
  const name = path.basename(deps.file);
  return room.exclusive('file-import', async () => {
    const [published, seen] = await Promise.all([room.published(), room.fileSeen()]);
    const live = published ? await room.getVersion(published.versionId) : null;
    if (live?.hash === hash) {
      // Another node imported it first.
      if (seen !== hash) await room.markFileSeen(hash, deps.clock.now());
      return { version: { id: live.id, hash } };
    }
    if (live && seen === hash) throw new PublishedMeanwhile(`version ${live.id} was published while the file was read`);
    const at = deps.clock.now();
    const created = await room.createVersion(
      {
        author: { kind: 'file', name },
        createdAt: at,
        message: `From ${name}`,
        hash,
        source: 'file',
        definitionText: text,
      },
      'any',
    );
    if (created.status !== 'created') throw new Error('a version without a base cannot conflict');
    const { version } = created;
    await room.publish({
      versionId: version.id,
      previousId: published?.versionId ?? null,
      at,
      by: { kind: 'file', name },
      kind: 'file',
      moves: [],
    });
    // Last: a crash before it imports the file again on the next start rather than never.
    await room.markFileSeen(hash, at);
    const actor = { kind: 'file' as const };
    await deps.audit.record({
      actor,
      action: 'version_imported',
      target: version.id,
      details: { file: name, hash, source: 'file' },
    });
    await deps.audit.record({
      actor,
      action: 'published',
      target: version.id,
      details: { previous: published?.versionId ?? null, kind: 'file' },
    });
    if (published && published.by.kind !== 'file') {
      deps.logger.warn(
        {
          event: 'definition_file_published',
          version: version.id,
          replaced: published.versionId,
          replacedBy: published.by.name ?? published.by.kind,
        },
        `${name} changed since it was last read: it is now the published version ${version.id}; ${published.versionId}, published in the studio, stays in the history and can be published again`,
      );
    } else {
      deps.logger.info(
        {
          event: 'definition_file_published',
          version: version.id,
          ...(published ? { replaced: published.versionId } : {}),
        },
        `${name} is published as version ${version.id}`,
      );
    }
    return { version: { id: version.id, hash } };
  });
}

/**
 * At start: the bot to run is the published version, once the file is reconciled with the store
 * (the file's content when it brought a change). Throws DefinitionError when the published
 * version no longer passes the checks here (a step type module removed, a secret unset).
 */
export async function startingSource(deps: FileDeps, file: BotSource): Promise<BotSource> {
  for (let attempt = 0; ; attempt++) {
    const plan = await planFile(deps, file);
    try {
      const { version } = await plan.commit();
      return { ...plan.source, version };
    } catch (error) {
      if (!(error instanceof PublishedMeanwhile) || attempt > 2) throw error;
    }
  }
}
