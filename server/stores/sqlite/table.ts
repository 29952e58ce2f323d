/**
 * A table declared once: its name and, for each field of the record a row holds, the column that
 * keeps it. The statements below are built from it, so a column's name and the field it becomes
 * are spelled in one place, and rows read through `columns` come back in the record's shape
 * (`password_hash AS passwordHash`) without a mapping function that lists every field again.
 */
export interface Table<R = object> {
  readonly name: string;
  /** Every field of the record, and only those: the checker sees a column forgotten or left over. */
  readonly columns: { readonly [F in keyof R]-?: string };
}

export function table<R>(name: string, columns: Table<R>['columns']): Table<R> {
  return { name, columns };
}

/** The select (or RETURNING) list that names each column by its field. */
export function columns(of: Table): string {
  return Object.entries<string>(of.columns as Record<string, string>)
    .map(([field, column]) => (field === column ? column : `${column} AS "${field}"`))
    .join(', ');
}

/** `SELECT <columns> FROM <table>`, for the caller to add its WHERE and ORDER BY. */
export function selectFrom(of: Table): string {
  return `SELECT ${columns(of)} FROM ${of.name}`;
}

/** `INSERT INTO <table> (<columns>) VALUES (@<fields>)`: values bound by field name. */
export function insertInto(of: Table): string {
  const fields = Object.keys(of.columns);
  return `INSERT INTO ${of.name} (${Object.values<string>(of.columns as Record<string, string>).join(', ')}) VALUES (${fields.map((field) => `@${field}`).join(', ')})`;
}
