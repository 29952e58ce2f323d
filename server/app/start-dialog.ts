import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { updateUserWithRetry } from './update-user.ts';

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
}

/** The page asked to start a dialog for the user (a page event, a start-dialog button outside the chat). */
export async function startDialog(deps: AppDeps, input: StartDialog): Promise<void> {
  assertDialog(deps, input.dialogId);
  await deps.turns.run(input.userId, async () => {
    const now = deps.clock.now();
    if (input.data) {
      await updateUserWithRetry(deps.store, input.userId, now, (user) => ({
        variables: { ...user.variables, pageData: input.data },
      }));
    }
    await applyTurn(deps, input.userId, { kind: 'start', dialogId: input.dialogId }, now, { userWrote: false });
  });
}
