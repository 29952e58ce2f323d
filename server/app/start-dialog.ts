import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import type { UserRecord } from '../ports/store.ts';

export class UnknownDialogError extends Error {
  override readonly name = 'UnknownDialogError';
  constructor(readonly dialogId: string) {
    super(`There is no dialog "${dialogId}" in this bot.`);
  }
}

export function assertDialog(deps: AppDeps, dialogId: string): void {
  if (!deps.definition.dialogs.some((d) => d.id === dialogId)) throw new UnknownDialogError(dialogId);
}

export interface StartDialog {
  readonly userId: string;
  readonly dialogId: string;
  /** Extra data for the dialog, saved as the variable `pageData` before it runs. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** A change to the user committed with the dialog's turn (a channel's record of the request); may throw to store nothing. */
  readonly adjust?: (user: UserRecord) => UserRecord;
}

/** The page asked to start a dialog for the user (a page event, a start-dialog button outside the chat). */
export async function startDialog(deps: AppDeps, input: StartDialog): Promise<void> {
  assertDialog(deps, input.dialogId);
  const { data, adjust } = input;
  await deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    // The data is committed with the dialog's turn: a failed turn leaves no pageData behind.
    const change = (user: UserRecord) => {
      const withData = data ? { ...user, variables: { ...user.variables, pageData: data } } : user;
      return adjust ? adjust(withData) : withData;
    };
    await applyTurn(deps, input.userId, { kind: 'start', dialogId: input.dialogId }, now, {
      userWrote: false,
      adjust: change,
    });
  });
}
