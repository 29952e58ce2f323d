import { canonicalText, exportDefinition, hashOfCanonicalText, type ExportFormat } from '../../definition/canonical.ts';
import type { Problem } from '../../definition/problem.ts';
import { MAX_DEFINITION_BYTES, parseDefinitionText } from '../../definition/read-source.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { Draft, Publication, StoredVersion, VersionAuthor, VersionMeta } from '../../ports/versions.ts';
import { writtenOf } from '../../bot/version-source.ts';
import { authorOf, type Acting, type VersionsDeps } from './versions-deps.ts';

/** A version as the list shows it. */
export interface VersionView extends VersionMeta {
  /** When it was last put live; absent when it never was. */
  readonly publishedAt?: number;
  /** Who last put it live (a publish, a rollback, or the file at start): not always its author. */
  readonly publishedBy?: VersionAuthor;
}

export interface VersionList {
  readonly versions: readonly VersionView[];
  readonly publishedId: string | null;
  readonly headId: string | null;
  /** Pass as `before` for the next (older) page; absent on the last. */
  readonly nextBefore?: number;
}

export interface DraftView {
  readonly baseVersionId: string | null;
  readonly definition: unknown;
  readonly revision: number;
  readonly updatedAt: number;
}

type CheckedProblem = Problem & { readonly severity: 'error' | 'warning' };

/** How far back the list looks for when each version was live. */
const PUBLICATION_HISTORY = 1000;

function publishedAtOf(publications: readonly Publication[]): Map<string, Publication> {
  const at = new Map<string, Publication>();
  // Newest first: the first seen is the latest time each was put live.
  for (const publication of publications)
    if (!at.has(publication.versionId)) at.set(publication.versionId, publication);
  return at;
}

function view(meta: VersionMeta, publishedAt: Map<string, Publication>): VersionView {
  const last = publishedAt.get(meta.id);
  return last === undefined ? meta : { ...meta, publishedAt: last.at, publishedBy: last.by };
}

const metaOf = ({ definitionText: _text, ...meta }: StoredVersion): VersionMeta => meta;

export async function listVersions(deps: VersionsDeps, limit: number, before?: number): Promise<VersionList> {
  const [versions, publications, head] = await Promise.all([
    deps.room.listVersions(limit + 1, before),
    deps.room.publications(PUBLICATION_HISTORY),
    deps.room.head(),
  ]);
  const at = publishedAtOf(publications);
  const page = versions.slice(0, limit);
  return {
    versions: page.map((meta) => view(meta, at)),
    publishedId: publications[0]?.versionId ?? null,
    headId: head?.id ?? null,
    ...(versions.length > limit ? { nextBefore: page.at(-1)!.number } : {}),
  };
}

export async function versionOrThrow(deps: VersionsDeps, id: string): Promise<StoredVersion> {
  const version = await deps.room.getVersion(id);
  if (!version)
    throw new HttpError(
      404,
      'version_not_found',
      `There is no version ${JSON.stringify(id)}; the list of versions names each one.`,
      { versionId: id },
    );
  return version;
}

export async function readVersion(
  deps: VersionsDeps,
  id: string,
): Promise<VersionView & { readonly definition: unknown }> {
  const version = await versionOrThrow(deps, id);
  const at = publishedAtOf(await deps.room.publications(PUBLICATION_HISTORY));
  return { ...view(metaOf(version), at), definition: writtenOf(version) };
}

/** The version as the file people keep in git: canonical key order, so `git diff` shows only what changed. */
export async function exportVersion(
  deps: VersionsDeps,
  id: string,
  format: ExportFormat,
): Promise<{ text: string; fileName: string; contentType: string }> {
  const version = await versionOrThrow(deps, id);
  const text = exportDefinition(writtenOf(version), format);
  const name = `bot-${version.id}.${format}`;
  return {
    text,
    fileName: name,
    contentType: format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
  };
}

/** Every problem `chatbot check` finds in a definition as written. */
export async function checkWritten(deps: VersionsDeps, written: unknown): Promise<CheckedProblem[]> {
  const checked = await deps.check(written);
  return checked.problems.map((p) => ({ ...p, severity: p.severity ?? 'error' }));
}

function accountOf(acting: Acting): string {
  const id = acting.actor.accountId;
  if (!id)
    throw new HttpError(
      403,
      'forbidden',
      'Drafts belong to an account; sign in to the studio, or use an API token of an account.',
    );
  return id;
}

/** A canonical text within the size bound, and its hash. */
function canonical(written: unknown): { text: string; hash: string } {
  const text = canonicalText(written);
  if (Buffer.byteLength(text, 'utf8') > MAX_DEFINITION_BYTES) {
    throw new HttpError(
      413,
      'payload_too_large',
      `The definition is over ${MAX_DEFINITION_BYTES / 1024 / 1024} MB; split the bot or move data into a background dataset.`,
    );
  }
  return { text, hash: hashOfCanonicalText(text) };
}

const draftView = (draft: Draft): DraftView => ({
  baseVersionId: draft.baseVersionId,
  definition: JSON.parse(draft.definitionText) as unknown,
  revision: draft.revision,
  updatedAt: draft.updatedAt,
});

/** The caller's own draft; on the first read it is made from the head version. */
export async function readDraft(deps: VersionsDeps, acting: Acting): Promise<DraftView> {
  const accountId = accountOf(acting);
  for (;;) {
    const draft = await deps.room.readDraft(accountId);
    if (draft) return draftView(draft);
    const head = await deps.room.head();
    const base = head ? await deps.room.getVersion(head.id) : null;
    const definitionText = base?.definitionText ?? canonicalText(deps.live().written);
    const written = await deps.room.writeDraft(
      accountId,
      { baseVersionId: base?.id ?? null, definitionText, updatedAt: deps.clock.now() },
      null,
    );
    // Another tab made it first: read theirs.
    if (written.status === 'saved') return draftView(written.draft);
  }
}

/** Autosave: refused when the draft moved on since `revision` (another tab of the same account), so neither tab overwrites the other unseen. */
export async function autosaveDraft(
  deps: VersionsDeps,
  acting: Acting,
  input: { readonly baseVersionId: string | null; readonly revision: number | null; readonly definition: unknown },
): Promise<{ revision: number; updatedAt: number }> {
  const accountId = accountOf(acting);
  if (input.baseVersionId !== null) await versionOrThrow(deps, input.baseVersionId);
  const { text } = canonical(input.definition);
  const outcome = await deps.room.writeDraft(
    accountId,
    { baseVersionId: input.baseVersionId, definitionText: text, updatedAt: deps.clock.now() },
    input.revision,
  );
  if (outcome.status === 'conflict') {
    const stored = outcome.draft;
    throw new HttpError(
      409,
      'draft_conflict',
      `Your draft was saved from another tab or window since revision ${input.revision ?? 'none'}; reload it there or here before going on, so neither overwrites the other.`,
      stored
        ? { revision: stored.revision, updatedAt: stored.updatedAt, baseVersionId: stored.baseVersionId }
        : { revision: null },
    );
  }
  return { revision: outcome.draft.revision, updatedAt: outcome.draft.updatedAt };
}

export interface SaveOutcome {
  readonly created: boolean;
  readonly version: VersionMeta;
  readonly problems: readonly CheckedProblem[];
}

/**
 * Saves a definition as a new immutable version on `baseVersionId`, which must still be the head:
 * when someone saved since, nothing is written and 409 `version_conflict` carries the base, theirs
 * and yours, so the editor compares and saves again on theirs. Saving what the head already holds
 * makes no version.
 */
export async function saveVersion(
  deps: VersionsDeps,
  acting: Acting,
  input: { readonly baseVersionId: string; readonly definition: unknown; readonly message: string },
): Promise<SaveOutcome> {
  const base = await versionOrThrow(deps, input.baseVersionId);
  const { text, hash } = canonical(input.definition);
  const head = await deps.room.head();
  if (head?.id === base.id && base.hash === hash)
    return { created: false, version: metaOf(base), problems: await checkWritten(deps, input.definition) };
  const outcome = await deps.room.createVersion(
    {
      author: authorOf(acting),
      createdAt: deps.clock.now(),
      message: input.message,
      hash,
      source: 'studio',
      definitionText: text,
    },
    base.id,
  );
  if (outcome.status === 'conflict') {
    const theirs = outcome.head ? await deps.room.getVersion(outcome.head.id) : null;
    const who = theirs?.author.name ?? theirs?.author.email ?? 'someone';
    throw new HttpError(
      409,
      'version_conflict',
      `${who} saved version ${theirs?.id ?? '?'} since you started from ${base.id}; nothing was overwritten. Compare the two, then save your changes on ${theirs?.id ?? 'the newest version'}.`,
      {
        base: { id: base.id, definition: writtenOf(base) },
        theirs: theirs
          ? {
              id: theirs.id,
              definition: writtenOf(theirs),
              author: theirs.author,
              createdAt: theirs.createdAt,
              message: theirs.message,
            }
          : null,
        yours: input.definition,
      },
    );
  }
  await deps.audit.record({
    actor: acting.actor,
    ...(acting.ip ? { ip: acting.ip } : {}),
    action: 'version_saved',
    target: outcome.version.id,
    details: { base: base.id, message: input.message, hash },
  });
  return { created: true, version: outcome.version, problems: await checkWritten(deps, input.definition) };
}

/**
 * Imports a file's text (JSON or YAML; `chatbot push`, an upload) as a new version on the head,
 * source `push`. A text that does not parse is refused with its problems; one that parses is kept
 * even with problems (they are returned, and block its publish). The head's content again makes no version.
 */
export async function importText(
  deps: VersionsDeps,
  acting: Acting,
  input: { readonly text: string; readonly format: ExportFormat; readonly message: string },
): Promise<SaveOutcome> {
  const parsed = parseDefinitionText(input.text, input.format);
  if ('problems' in parsed) {
    const problems = parsed.problems.map((p) => ({ ...p, severity: 'error' as const }));
    throw new HttpError(
      400,
      'invalid_definition',
      `The ${input.format === 'yaml' ? 'YAML' : 'JSON'} file cannot be read: ${problems[0]?.path}: ${problems[0]?.message}.`,
      { problems },
    );
  }
  const { text, hash } = canonical(parsed.value);
  const head = await deps.room.head();
  if (head?.hash === hash) return { created: false, version: head, problems: await checkWritten(deps, parsed.value) };
  const outcome = await deps.room.createVersion(
    {
      author: authorOf(acting),
      createdAt: deps.clock.now(),
      message: input.message,
      hash,
      source: 'push',
      definitionText: text,
    },
    'any',
  );
  if (outcome.status !== 'created') throw new Error('a version without a base cannot conflict');
  await deps.audit.record({
    actor: acting.actor,
    ...(acting.ip ? { ip: acting.ip } : {}),
    action: 'version_imported',
    target: outcome.version.id,
    details: { source: 'push', message: input.message, hash },
  });
  return { created: true, version: outcome.version, problems: await checkWritten(deps, parsed.value) };
}
