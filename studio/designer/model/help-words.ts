import type { DesignerStrings } from '../i18n/strings.ts';

/**
 * The schema's help texts name fields by their JSON keys ("the cardsFrom variable", "For inputType
 * "choice""), which a person filling the form never sees: each key the form labels (a camelCase key,
 * so plain words such as "text" stay as they are) becomes its label in quotes.
 */
export function helpInFormWords(help: string, t: DesignerStrings): string {
  return help.replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (key) => (t.fields[key] ? `"${t.fields[key]}"` : key));
}

/** The catalogue's schema with every description in the form's words (the schema itself stays the server's). */
export function schemaInFormWords<T>(schema: T, t: DesignerStrings): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === 'description' && typeof value === 'string' ? helpInFormWords(value, t) : walk(value),
      ]),
    );
  };
  return walk(schema) as T;
}
