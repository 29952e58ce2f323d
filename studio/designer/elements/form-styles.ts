import { css } from 'lit';

/** The look of a step's form: fields stacked, rows in light boxes, pairs side by side where there is space. */
export const formStyles = css`
  :host {
    display: block;
  }
  .field {
    margin: 0 0 12px;
  }
  .field > label,
  .pair label,
  .triple label {
    display: block;
    font-weight: 600;
    margin-bottom: 2px;
  }
  .field.check {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  .field.check input {
    width: 20px;
    height: 20px;
  }
  .field.check .help,
  .field.check .problem {
    flex-basis: 100%;
  }
  .req {
    font-weight: 400;
    color: var(--muted);
  }
  fieldset {
    margin: 0 0 12px;
    padding: 8px 12px 12px;
    border: 1px solid var(--line);
    border-radius: var(--radius);
    min-width: 0;
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
  fieldset.row {
    background: var(--soft);
  }
  .rows > li + li {
    margin-top: 8px;
  }
  .row-line {
    display: flex;
    gap: 6px;
    align-items: center;
  }
  .row-line > input {
    flex: 1;
    min-width: 0;
  }
  .row-line.kv > input {
    flex: 1 1 40%;
  }
  .row-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin-top: 4px;
  }
  .pair,
  .triple {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
    gap: 8px 12px;
    margin-bottom: 6px;
  }
  .conditions > li + li {
    margin-top: 6px;
  }
`;
