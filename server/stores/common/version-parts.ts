import type { VersionsStore } from '../../ports/versions.ts';

/** The parts of the versions port, each over a table (collection) of its own; an adapter's versions store is all of them. */
export type Publications = Pick<VersionsStore, 'publish' | 'published' | 'publications'>;
export type Drafts = Pick<VersionsStore, 'readDraft' | 'writeDraft'>;
export type VersionHistory = Pick<VersionsStore, 'createVersion' | 'getVersion' | 'listVersions' | 'head'>;
