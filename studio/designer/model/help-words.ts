import { format } from '../../i18n/catalogue.ts';
import type { HelpTexts } from '../i18n/help.ts';
import type { DesignerStrings } from '../i18n/strings.ts';

/**
 * A JSON key in a help text: camelCase, so plain words such as "text" stay as they are. Not one inside
 * a template or a path ("{{userData.email}}", "settings.nlpThreshold", "<dialogId>"), a JSON shape
 * ("imageUrl?") or quotes (the value "dialogStart"): those are what a person types, not a field of the form.
 */
const JSON_KEY = /(?<![\w.{<$"„-])[a-z]+(?:[A-Z][a-z0-9]*)+(?![\w}>?(-]|\.\w)/g;

/** A JSON key with one of its values in quotes (`inputType "choice"`, `inputType „choice“`): a field set to an option. */
const KEY_AND_VALUE = /(?<![\w.{<$"„-])([a-z]+(?:[A-Z][a-z0-9]*)+) ["„]([^"“]+)["“]/g;

/**
 * What the schema adds to a description it was given: a step type's name before it, the step types
 * known after it. The known ones are a list of keys; the form's list offers them in words, so the help
 * says what to pick and leaves the list to the list.
 */
const NAMED = /^(\w+): (.+)$/s;
const KNOWN = /^(.+) Known here: (.+)\.$/s;

/** The help text in the table's language (the studio's own English included), the server's when the table has none for it. */
export function helpInLanguage(help: string, table: HelpTexts): string {
  const own = table[help];
  if (own !== undefined) return own;
  const named = NAMED.exec(help);
  if (named && table[named[2]!] !== undefined) return `${named[1]}: ${table[named[2]!]}`;
  const known = KNOWN.exec(help);
  if (known) return table[known[1]!] ?? known[1]!;
  return help;
}

/**
 * A help text in the person's language and in the form's words: the schema names fields by their JSON
 * keys ("the cardsFrom variable", "For inputType "choice""), which a person filling the form never
 * sees, so each key the form labels becomes its label in quotes.
 */
export function helpInFormWords(help: string, t: DesignerStrings, table: HelpTexts = {}): string {
  const quoted = (label: string) => format(t.fieldInHelp, { label });
  return (
    helpInLanguage(help, table)
      // A yes-or-no field's default is said under it in words ("Default: Yes"), not a second time as JSON.
      .replace(/ Default (true|false)\.$/, '')
      .replace(KEY_AND_VALUE, (whole, key: string, value: string) => {
        const label = t.fields[key];
        const word = t.options[key]?.[value];
        // The option as the form's list shows it: "Answer type" "Pick from choices".
        return label && word ? `${quoted(label)} ${quoted(word)}` : whole;
      })
      .replace(JSON_KEY, (key) => {
        // A step type's parameter (`urlSecret`) by its label too: the form shows it beside this help.
        const label = t.fields[key] ?? t.paramFields[key];
        return label ? quoted(label) : key;
      })
  );
}

/** The catalogue with every description (the schema's and the step types') in the form's words; the server's stays as it was. */
export function catalogueInFormWords<T>(catalogue: T, t: DesignerStrings, table: HelpTexts = {}): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === 'description' && typeof value === 'string' ? helpInFormWords(value, t, table) : walk(value),
      ]),
    );
  };
  return walk(catalogue) as T;
}
