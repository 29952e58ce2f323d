/**
 * The shapes the studio's versions API answers with that the web app reads as they are: one
 * definition here, imported by the server (server/definition/diff.ts, server/studio/versions/)
 * and by studio/, so the two cannot drift apart. Types only.
 */

/** A step of a dialog, by id. */
export interface StepRef {
  readonly dialogId: string;
  readonly stepId: string;
}

/** One difference between two definitions, as the publish plan lists it. */
export interface Change {
  readonly kind: 'added' | 'removed' | 'changed';
  readonly what: 'dialog' | 'step' | 'settings' | 'intent' | 'faq' | 'part';
  /** Where, in the version being published (in the live one for a removal): `dialogs[2].steps[0]`. */
  readonly path: string;
  readonly dialogId?: string;
  readonly stepId?: string;
  /** The id of an intent or FAQ pair; the name of a top-level part (`integrations`, `pageEvents`, …). */
  readonly id?: string;
  /** The fields that differ, for a change; `order` when only the order of steps changed. */
  readonly fields?: readonly string[];
  /** The same, in one English sentence (the studio composes its own in the reader's language from the fields above). */
  readonly words: string;
}

/** A position the version to publish no longer has, the users resting there now, and where they go unless told otherwise. */
export interface Stranded extends StepRef {
  readonly users: number;
  readonly defaultTarget: StepRef | null;
}
