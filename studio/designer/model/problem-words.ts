import type { DesignerStrings } from '../i18n/strings.ts';
import { format } from '../../i18n/catalogue.ts';
import { humanize } from '../i18n/strings.ts';
import { optionWord } from './option-words.ts';
import { parsePath } from './paths.ts';
import type { PlacedProblem } from './problems.ts';

/**
 * A problem `check` found, in the words of the form: the field by its label ("Question", not
 * `prompt`) and the commonest sentences in the studio's language. A sentence the studio has no
 * words for keeps the server's, after the field's label. The raw form stays in `chatbot check`.
 */
export function problemText(t: DesignerStrings, problem: Pick<PlacedProblem, 'field' | 'message' | 'hint'>): string {
  const label = fieldLabel(t, problem.field);
  const message = problem.message;
  if (label === '') return `${message}${problem.hint ? ` (${problem.hint})` : ''}`;
  const said = (template: string, values: Record<string, string | number> = {}) =>
    format(template, { field: label, ...values });
  let text: string;
  let match: RegExpExecArray | null;
  // An empty text is as missing as an absent one, to the person filling the form.
  if (message === 'is required' || message.startsWith('must be at least 1 characters')) text = said(t.problemRequired);
  else if ((match = /^must be at least (\d+) characters/.exec(message)))
    text = said(t.problemTooShort, { n: Number(match[1]) });
  else if ((match = /^must be at most (\d+) characters/.exec(message)))
    text = said(t.problemTooLong, { n: Number(match[1]) });
  else if ((match = /^must be at least (\d+) items/.exec(message)))
    text = said(t.problemTooFew, { n: Number(match[1]) });
  else if ((match = /^unknown key "(.+)"$/.exec(message)))
    text = said(t.problemUnknownField, { name: humanize(match[1]!) });
  else if ((match = /^"(.*)" is not allowed$/.exec(message))) text = notAllowed(t, problem, match[1]!, said);
  else if ((match = /^must be an? (number|whole number|boolean|string) \(got /.exec(message)))
    text = said(
      {
        number: t.problemNotNumber,
        'whole number': t.problemNotWholeNumber,
        boolean: t.problemNotYesNo,
        string: t.problemNotText,
      }[match[1]!]!,
    );
  else if ((match = /^must be at (least|most) (-?[\d.]+)( \(got [^)]*\))?$/.exec(message)))
    text = said(match[1] === 'least' ? t.problemAtLeast : t.problemAtMost, { n: match[2]! });
  else if (message.startsWith('must be a duration such as')) text = said(t.problemDuration);
  else return `${label}: ${message}${problem.hint ? ` (${problem.hint})` : ''}`;
  return text;
}

/**
 * A value the field's list does not offer, with the studio's words for the ones it does (from the
 * check's hint): "Answer type: "choise" is not one of the choices; did you mean "Pick from choices"?".
 */
function notAllowed(
  t: DesignerStrings,
  problem: Pick<PlacedProblem, 'field' | 'hint'>,
  value: string,
  said: (template: string, values?: Record<string, string | number>) => string,
): string {
  const key =
    parsePath(problem.field)
      .filter((part): part is string => typeof part === 'string')
      .at(-1) ?? '';
  const word = (option: string) => optionWord(t, key, option) ?? option;
  const hint = problem.hint ?? '';
  const near = /did you mean "([^"]+)"/i.exec(hint)?.[1];
  if (near !== undefined) return said(t.problemDidYouMean, { value, suggestion: word(near) });
  const allowed = [...(/allowed: (.*)$/is.exec(hint)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => word(m[1]!));
  return said(t.problemNotAllowed, { value, allowed: allowed.join(', ') });
}

/** The label of the field a problem names: its last named part (`choices[1].label` → "Label"), '' for the step itself. */
export function fieldLabel(t: DesignerStrings, field: string): string {
  if (field === '') return '';
  const named = parsePath(field).filter((part): part is string => typeof part === 'string');
  const key = named[named.length - 1];
  if (key === undefined) return '';
  // An integration's parameters have words of their own (form-context.ts labelFor).
  return (named[0] === 'params' && named.length > 1 ? t.paramFields[key] : t.fields[key]) ?? humanize(key);
}
