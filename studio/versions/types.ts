/** The versions API's answers, as the studio reads them: the wire shapes are in shared/ with the studio's HTTP contract. */
export type {
  Change,
  ListedVersion as VersionMeta,
  Problem,
  PublishPlan,
  StepRef,
  Stranded,
  TestOutcome,
  VersionAuthor,
  VersionList,
} from '../../shared/studio-versions.ts';

/** The parts of a definition the target picker reads; anything else is left alone. */
export interface DefinitionOutline {
  readonly dialogs?: ReadonlyArray<{
    readonly id?: unknown;
    readonly steps?: ReadonlyArray<{ readonly id?: unknown }>;
  }>;
}
