/**
 * What a bot definition's templates may read, and which step sets which name: one piece of
 * knowledge for `chatbot check` (server/definition/template-names.ts) and the studio's designer
 * (variables panel, template autocomplete). Works on the definition as plain JSON, so a draft
 * that does not pass the schema yet can still be read.
 */

/** Names every conversation may hold without the definition setting them (server/app sets them). */
export const BUILT_IN_VARIABLES = ['pageData', 'triggerData', 'lastPageEvent'] as const;

/** What integration parameters may read besides variables and user data (server/integrations/step-types/template-params.ts). */
export const PARAMS_ONLY = ['userId', 'variables', 'userData'] as const;

/** One `{{name}}` or `{{name.inner}}`; group 1 is the first name. Global: use with matchAll. */
export const TEMPLATE_PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$]*)(?:\.[\w$]+)*\s*\}\}/g;

/** Fields whose strings are data, not templates: a set action's literal value, a condition's operand, a regex, ids and targets. */
export const NOT_TEMPLATE_KEYS: ReadonlySet<string> = new Set([
  'value',
  'pattern',
  'variable',
  'cardsFrom',
  'id',
  'type',
  'next',
  'then',
  'else',
  'dialog',
  'step',
  'onError',
  'onNoMatch',
  'onMaxRetries',
  'mapping',
  'integration',
  'service',
  'output',
]);

/** Where a step puts a value: a conversation variable, or a user-data field. */
export interface NameSet {
  readonly name: string;
  readonly kind: 'variable' | 'userData';
  /** The step's own field that names it, e.g. `saveTo.variable`, `actions[0].userData`, `output`, `onError`. */
  readonly field: string;
}

type Loose = Readonly<Record<string, unknown>>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The names one step sets (or unsets) when it runs: an input's `saveTo`, a set action's `variable`
 * or `userData`, an integration's `output`, and its error flag with `<flag>Error`.
 */
export function namesSetBy(step: Loose): NameSet[] {
  const out: NameSet[] = [];
  switch (step.type) {
    case 'input': {
      const saveTo = step.saveTo as Loose | undefined;
      const variable = text(saveTo?.variable);
      const field = text(saveTo?.userData);
      if (variable !== undefined) out.push({ name: variable, kind: 'variable', field: 'saveTo.variable' });
      if (field !== undefined) out.push({ name: field, kind: 'userData', field: 'saveTo.userData' });
      break;
    }
    case 'set':
      (Array.isArray(step.actions) ? (step.actions as Loose[]) : []).forEach((action, i) => {
        const variable = text(action?.variable);
        const field = text(action?.userData);
        if (variable !== undefined) out.push({ name: variable, kind: 'variable', field: `actions[${i}].variable` });
        if (field !== undefined) out.push({ name: field, kind: 'userData', field: `actions[${i}].userData` });
      });
      break;
    case 'integration': {
      const output = text(step.output);
      if (output !== undefined) out.push({ name: output, kind: 'variable', field: 'output' });
      const onError = text(step.onError);
      if (onError?.startsWith('flag:')) {
        const flag = onError.slice('flag:'.length);
        if (flag !== '')
          out.push(
            { name: flag, kind: 'variable', field: 'onError' },
            { name: `${flag}Error`, kind: 'variable', field: 'onError' },
          );
      }
      break;
    }
    default:
      break;
  }
  return out;
}

/** The variables (not user-data fields) a step sets: what a template may read once the step has run. */
export function variablesSetBy(step: Loose): string[] {
  return namesSetBy(step)
    .filter((set) => set.kind === 'variable')
    .map((set) => set.name);
}

/** The first names of every `{{…}}` in a text, in order (`{{user.name}}` gives `user`). */
export function placeholderNames(value: string): string[] {
  return [...value.matchAll(TEMPLATE_PLACEHOLDER)].map((match) => match[1]!);
}
