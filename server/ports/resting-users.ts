/**
 * How many users rest on given positions now: what a publish would strand is shown with the
 * number of people it concerns. A port of its own, beside the Store, since only the studio's
 * publish plan asks it; both stores answer it from the users they keep.
 */
export interface RestingUsers {
  /** One count per position asked, in the same order. A position is a dialog id and a step id. */
  countResting(positions: readonly { readonly dialogId: string; readonly stepId: string }[]): Promise<number[]>;
}
