import { html, nothing, type TemplateResult } from 'lit';

/** A column's heading; `numeric` right-aligns it over a column of figures (the `n` class). */
export type Column = string | { readonly label: string; readonly numeric: true };

/** What a table says before its rows. */
export interface TableHead {
  /** What the table holds: a screen reader says it on entering the table. */
  readonly caption?: string;
  /** The caption for screen readers only, where a heading on the screen already says it. */
  readonly captionHidden?: boolean;
  /** The column headings, left to right; a column shown only sometimes is left out of the list. */
  readonly columns: readonly Column[];
}

/**
 * A table of records as every studio screen draws one: its caption, one header cell per column
 * (`scope="col"`, so each cell is announced with its column), then the rows the screen renders.
 */
export function dataTable(head: TableHead, rows: unknown): TemplateResult {
  const caption =
    head.caption === undefined
      ? nothing
      : html`<caption class=${head.captionHidden ? 'visually-hidden' : nothing}>${head.caption}</caption>`;
  return html`<table>
    ${caption}
    <thead>
      <tr>${head.columns.map(columnHeading)}</tr>
    </thead>
    <tbody>${rows}</tbody>
  </table>`;
}

function columnHeading(column: Column): TemplateResult {
  return typeof column === 'string'
    ? html`<th scope="col">${column}</th>`
    : html`<th scope="col" class=${column.numeric ? 'n' : nothing}>${column.label}</th>`;
}
