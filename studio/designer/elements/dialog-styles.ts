import { css } from 'lit';

/**
 * The designer's modal dialogs (save, conflict, step palette): a box on a dimmed page that never
 * grows past the window; `--dialog-width` is how wide it may get where the window allows.
 */
export const dialogStyles = css`
  dialog {
    width: min(var(--dialog-width, 32rem), calc(100vw - 2rem));
    max-height: calc(100vh - 2rem);
    padding: 16px;
    border-radius: 10px;
    border: 1px solid var(--line);
    color: var(--ink);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 35%);
  }
`;
