/** The parts of a definition the target picker reads; anything else is left alone. */
export interface DefinitionOutline {
  readonly dialogs?: ReadonlyArray<{
    readonly id?: unknown;
    readonly steps?: ReadonlyArray<{ readonly id?: unknown }>;
  }>;
}
