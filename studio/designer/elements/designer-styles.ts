import { css } from 'lit';
import { dialogStyles } from './dialog-styles.ts';

/**
 * The designer's page layout: the dialog list, the outline or map, and the panels side by side
 * on a wide screen; stacked at 200 % zoom and on a phone (the list first, kept short).
 */
export const layoutStyles = css`
  :host {
    display: block;
  }
  .bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px 12px;
    padding: 8px 0 12px;
    border-bottom: 1px solid var(--line);
    margin-bottom: 12px;
  }
  .bar h1 {
    font-size: 1.4rem;
    margin-block: 0;
    margin-inline-end: 8px;
  }
  .group {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    align-items: center;
  }
  .spacer {
    flex: 1;
  }
  .status {
    color: var(--muted);
    font-size: 0.9em;
  }
  .status.failed,
  .status.conflict {
    color: var(--danger);
  }
  [role='tablist'] {
    display: inline-flex;
    border: 1px solid var(--line);
    border-radius: var(--radius);
    overflow: hidden;
  }
  [role='tab'] {
    border: none;
    border-radius: 0;
    min-height: 32px;
  }
  [role='tab'][aria-selected='true'] {
    background: var(--accent);
    color: var(--accent-ink);
  }
  .grid {
    display: grid;
    grid-template-columns: minmax(12rem, 16rem) minmax(0, 1fr) minmax(16rem, 22rem);
    gap: 16px;
    align-items: start;
  }
  .grid > * {
    min-width: 0;
  }
  nav.dialogs {
    max-height: calc(100vh - 10rem);
    overflow: auto;
    padding-inline-end: 4px;
  }
  .panels [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    margin-bottom: 8px;
  }
  .panels [role='tab'] {
    flex: 1 1 auto;
  }
  .note {
    padding: 8px 12px;
    border-radius: var(--radius);
    background: #fff4dc;
    border: 1px solid #e5c47a;
    margin: 0 0 12px;
  }
  .note.error {
    background: #fde8e8;
    border-color: #e3a3a3;
  }
  .presence {
    font-size: 0.9em;
    color: var(--muted);
  }
  ${dialogStyles}
  dialog label {
    display: block;
    font-weight: 600;
  }
  .buttons {
    display: flex;
    justify-content: flex-end;
    gap: 8px;
    margin-top: 12px;
  }
  @media (max-width: 1100px) {
    .grid {
      grid-template-columns: minmax(11rem, 14rem) minmax(0, 1fr);
    }
    .panels {
      grid-column: 1 / -1;
    }
  }
  @media (max-width: 720px) {
    .grid {
      grid-template-columns: minmax(0, 1fr);
    }
    nav.dialogs {
      max-height: 40vh;
      border: 1px solid var(--line);
      border-radius: var(--radius);
      padding: 8px;
    }
  }
`;
