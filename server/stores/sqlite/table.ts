/**
 * A table declared once: its name and, for each field of the record a row holds, the column that
 * keeps it. The statements below are built from it, so a column's name and the field it becomes
 * are spelled in one place, and rows read through `columns` come back in the record's shape
 * (`password_hash AS "passwordHash"`) without a mapping function that lists every field again.
 */
export interface Table<R = object> {
  readonly name: string;
  /** Every field of the record, and only those: the checker sees a column forgotten or left over. */
  readonly columns: { readonly [F in keyof R]-?: string };
  /** Fields kept as JSON text: records the store keeps but never queries (see json.ts). */
  readonly json: readonly (keyof R)[];
  /** Optional fields: NULL in the column, absent from the record. */
  readonly optional: readonly (keyof R)[];
}

/** A row as read through `columns`: the record's fields, JSON ones still text. */
export type Row = Readonly<Record<string, unknown>>;

export function table<R>(
  name: string,
  columns: Table<R>['columns'],
  kinds: Partial<Pick<Table<R>, 'json' | 'optional'>> = {},
): Table<R> {
  return { name, columns, json: kinds.json ?? [], optional: kinds.optional ?? [] };
}

function fieldsOf<R>(of: Table<R>, except: readonly (keyof R)[]): Array<[string, string]> {
  return Object.entries<string>(of.columns as Record<string, string>).filter(
    ([field]) => !except.includes(field as keyof R),
  );
}

/** The select (or RETURNING) list that names each column by its field, but those `except`. */
export function columns<R>(of: Table<R>, except: readonly (keyof R)[] = []): string {
  return fieldsOf(of, except)
    .map(([field, column]) => (field === column ? column : `${column} AS "${field}"`))
    .join(', ');
}

/** `SELECT <columns> FROM <table>`, for the caller to add its WHERE and ORDER BY. */
export function selectFrom<R>(of: Table<R>, except: readonly (keyof R)[] = []): string {
  return `SELECT ${columns(of, except)} FROM ${of.name}`;
}

/** How an insert's values are bound: by field name (`@field`, see `rowOf`), or by position (`?`, see `valuesOf`). */
export interface Binding {
  /**
   * By position, in the order of the table's columns: SQLite finds each named value by a search among
   * the statement's names, which costs a hot insert (a job's, two a channel turn) about as much again.
   */
  readonly byPosition?: boolean;
}

/** `INSERT INTO <table> (<columns>) VALUES (@<fields>)`: values bound by field name (see `rowOf`), or by position. */
export function insertInto<R>(of: Table<R>, binding: Binding = {}): string {
  const fields = fieldsOf(of, []);
  const values = fields.map(([field]) => (binding.byPosition ? '?' : `@${field}`));
  return `INSERT INTO ${of.name} (${fields.map(([, column]) => column).join(', ')}) VALUES (${values.join(', ')})`;
}

/** An insert that, on the key's conflict, writes every other column of the row it brings instead. */
export function upsertInto<R>(of: Table<R>, key: keyof R, binding: Binding = {}): string {
  const others = fieldsOf(of, [key]).map(([, column]) => `${column} = excluded.${column}`);
  return `${insertInto(of, binding)} ON CONFLICT (${of.columns[key]}) DO UPDATE SET ${others.join(', ')}`;
}

/** A record's values in the order of the table's columns: what a statement bound by position takes. */
export function valuesOf<R>(of: Table<R>): (record: R) => unknown[] {
  const fields = fieldsOf(of, []).map(([field]) => field as keyof R);
  return (record) => fields.map((field) => record[field]);
}

/**
 * A row read through `columns` as its record: JSON fields parsed, NULL optional fields left out, as
 * are the fields the row was not read with (`except`).
 */
export function recordOf<R>(of: Table<R>, row: Row): R {
  const record: Record<string, unknown> = {};
  for (const field in of.columns) {
    const value = row[field];
    if (value === undefined || (value === null && of.optional.includes(field))) continue;
    record[field] = value !== null && of.json.includes(field) ? JSON.parse(value as string) : value;
  }
  return record as R;
}

/** A record's values to bind by field name: JSON fields as text, an absent optional field as NULL. */
export function rowOf<R>(of: Table<R>, record: R): Row {
  const row: Record<string, unknown> = {};
  for (const field in of.columns) {
    const value = record[field];
    row[field] = value === undefined ? null : of.json.includes(field) ? JSON.stringify(value) : value;
  }
  return row;
}
