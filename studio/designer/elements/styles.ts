import { css } from 'lit';

/**
 * The designer's shared look: system fonts, AA contrast, a focus ring that is always visible
 * for keyboard users, controls at least 24 px (44 px on touch screens), and layouts that reflow
 * at 200 % zoom and on a phone rather than scroll sideways.
 */
export const base = css`
  :host {
    --ink: #1b1f24;
    --muted: #505a66;
    --line: #c5ccd3;
    --soft: #f3f5f7;
    --paper: #ffffff;
    --accent: #0b5cad;
    --accent-ink: #ffffff;
    --danger: #a4161a;
    --warn: #7a4b00;
    --ok: #1d6b2f;
    --focus: #1a73e8;
    --radius: 6px;
    color: var(--ink);
    font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    box-sizing: border-box;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  /* A details element's content hangs in the browser's own slot, which keeps the initial content-box:
     without this a full-width field behind "More settings" is wider than its card by its padding. */
  details > * {
    box-sizing: border-box;
  }
  :focus-visible {
    outline: 3px solid var(--focus);
    outline-offset: 2px;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  button {
    min-height: 32px;
    padding: 4px 12px;
    border: 1px solid var(--line);
    border-radius: var(--radius);
    background: var(--paper);
    cursor: pointer;
  }
  button:hover:not([disabled]):not([aria-disabled='true']):not([aria-selected='true']):not(.primary) {
    background: var(--soft);
  }
  button[disabled],
  button[aria-disabled='true'] {
    color: var(--muted);
    cursor: not-allowed;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: var(--accent-ink);
  }
  button.primary:hover:not([disabled]):not([aria-disabled='true']) {
    background: #094a8b;
  }
  button.danger {
    color: var(--danger);
  }
  button.link {
    border: none;
    background: none;
    color: var(--accent);
    text-decoration: underline;
    padding: 2px 4px;
    min-height: 24px;
  }
  input:not([type='checkbox']):not([type='radio']),
  select,
  textarea {
    width: 100%;
    min-height: 32px;
    padding: 4px 8px;
    border: 1px solid #7a848f;
    border-radius: var(--radius);
    background: var(--paper);
  }
  textarea {
    min-height: 64px;
    resize: vertical;
  }
  input[aria-invalid='true'],
  select[aria-invalid='true'],
  textarea[aria-invalid='true'] {
    border-color: var(--danger);
    border-width: 2px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
  .help {
    color: var(--muted);
    font-size: 0.9em;
    margin: 2px 0 0;
  }
  .problem {
    color: var(--danger);
    font-size: 0.9em;
    margin: 2px 0 0;
  }
  .problem.warning {
    color: var(--warn);
  }
  .badge {
    display: inline-block;
    min-width: 1.6em;
    padding: 0 6px;
    border-radius: 999px;
    font-size: 0.8em;
    font-weight: 600;
    text-align: center;
    background: var(--soft);
    border: 1px solid var(--line);
  }
  .badge.error {
    background: #fde8e8;
    border-color: #e3a3a3;
    color: var(--danger);
  }
  .badge.warning {
    background: #fff4dc;
    border-color: #e5c47a;
    color: var(--warn);
  }
  ul.plain,
  ol.plain {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  h2,
  h3,
  h4 {
    margin: 0;
    line-height: 1.25;
  }
  @media (pointer: coarse) {
    button,
    input:not([type='checkbox']):not([type='radio']),
    select {
      min-height: 44px;
    }
  }
  /* A heading with its tools beside it, over a list. */
  .top {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: 8px;
    margin-bottom: 8px;
  }
`;
