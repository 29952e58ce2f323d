import { css } from 'lit';

/** The range of days above each insights view: its fields in one wrapping row, the form's own box left out. */
export const rangeFormStyles = css`
  fieldset {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1rem;
    align-items: end;
    border: 1px solid #d0d5da;
    border-radius: 4px;
    margin: 0 0 1rem;
  }
  fieldset form {
    display: contents;
  }
`;
