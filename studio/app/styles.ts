import { css } from 'lit';

/** What every studio screen shares: type, forms, buttons, focus, tables. Constructable stylesheets, so the strict CSP holds. */
export const shared = css`
  :host {
    font: 16px/1.5 system-ui, sans-serif;
    color: #1b1f24;
  }
  h1 {
    font-size: 1.6rem;
    margin: 0 0 1rem;
  }
  h2 {
    font-size: 1.2rem;
    margin: 1.5rem 0 0.5rem;
  }
  form {
    display: grid;
    gap: 0.75rem;
    max-width: 28rem;
  }
  label {
    display: grid;
    gap: 0.25rem;
    font-weight: 600;
  }
  input,
  select,
  textarea {
    font: inherit;
    padding: 0.45rem 0.6rem;
    border: 1px solid #5c6670;
    border-radius: 4px;
    background: #fff;
    color: inherit;
  }
  pre {
    max-height: 30rem;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    font-size: 0.85rem;
  }
  /* A checkbox sits before its words, on one line. */
  label.check {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    font-weight: 400;
  }
  .hint {
    font-weight: 400;
    font-size: 0.9rem;
    color: #4a535c;
  }
  button,
  .button {
    font: inherit;
    padding: 0.45rem 0.9rem;
    border-radius: 4px;
    border: 1px solid #0b5cad;
    background: #0b5cad;
    color: #fff;
    cursor: pointer;
    text-decoration: none;
    display: inline-block;
    justify-self: start;
  }
  button.secondary,
  .button.secondary {
    background: #fff;
    color: #0b5cad;
  }
  button.danger {
    background: #fff;
    color: #a4161a;
    border-color: #a4161a;
  }
  button[disabled] {
    opacity: 0.6;
    cursor: progress;
  }
  :focus-visible {
    outline: 3px solid #f0a500;
    outline-offset: 2px;
  }
  .error {
    color: #a4161a;
    font-weight: 600;
  }
  .notice {
    background: #eef5fc;
    border-left: 4px solid #0b5cad;
    padding: 0.5rem 0.75rem;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: left;
    padding: 0.4rem 0.5rem;
    border-bottom: 1px solid #d0d5da;
    vertical-align: top;
  }
  /* Details such as an audit entry's JSON have no spaces to wrap at: without this they push the table off the page. */
  td .hint {
    overflow-wrap: anywhere;
  }
  code,
  .secret-once {
    font-family: ui-monospace, monospace;
    word-break: break-all;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
