// What templates may read and which step sets which name is shared with the studio's designer.
import {
  BUILT_IN_VARIABLES,
  NOT_TEMPLATE_KEYS as NOT_TEMPLATES,
  PARAMS_ONLY,
  TEMPLATE_PLACEHOLDER as PLACEHOLDER,
  variablesSetBy,
} from '../../shared/bot-names.ts';
import type { BotDefinition } from './schema.ts';
import { closest, type Problem } from './problem.ts';
import { formatPath } from './path.ts';

export { BUILT_IN_VARIABLES };

/**
 * Every `{{name}}` in the definition's templates, checked against the names a conversation can hold:
 * declared user-data fields, variables some step sets (input, set, integration output and flag),
 * and the built-ins. A name close to a known one is a typo (an error with the suggestion); any other
 * unknown name may still come from the page's init data, so it is a warning.
 */
export function checkTemplateNames(definition: BotDefinition): Problem[] {
  const known = knownNames(definition);
  const problems: Problem[] = [];
  const visit = (value: unknown, path: PropertyKey[], inParams: boolean, depth: number): void => {
    if (depth > 64) return; // the schema bounds nesting already; this keeps the walk bounded regardless
    if (typeof value === 'string') {
      for (const match of value.matchAll(PLACEHOLDER)) {
        const name = match[1]!;
        if (known.has(name) || (inParams && (PARAMS_ONLY as readonly string[]).includes(name))) continue;
        const near = closest(name, inParams ? [...known, ...PARAMS_ONLY] : known);
        problems.push(
          near !== undefined
            ? {
                path: formatPath(path),
                message: `{{${name}}} is not a user-data field, a variable a step sets or a built-in`,
                hint: `did you mean {{${near}}}?`,
              }
            : {
                path: formatPath(path),
                message: `{{${name}}} is set by no step, user-data field or built-in, so it renders empty unless the page's init data holds it`,
                hint: 'declare it in userDataFields or set it in a step',
                severity: 'warning',
              },
        );
      }
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i], inParams, depth + 1));
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (NOT_TEMPLATES.has(key) && !inParams) continue;
        visit(inner, [...path, key], inParams || (key === 'params' && path[path.length - 2] === 'steps'), depth + 1);
      }
    }
  };
  definition.dialogs.forEach((dialog, d) =>
    dialog.steps.forEach((step, s) => {
      const at = ['dialogs', d, 'steps', s];
      if (step.type === 'set') {
        step.actions.forEach(
          (action, a) =>
            action.template !== undefined && visit(action.template, [...at, 'actions', a, 'template'], false, 0),
        );
        return;
      }
      // {{linkCode}} is the code the step itself shows, in its own text only.
      if (step.type === 'linkChannels') {
        visit({ ...step, text: step.text.replace(/\{\{\s*linkCode\s*\}\}/g, '') }, at, false, 0);
        return;
      }
      visit(step, at, false, 0);
    }),
  );
  definition.faq.forEach((pair, i) => visit(pair.answer, ['faq', i, 'answer'], false, 0));
  return problems;
}

/** The names a template may read: user-data fields, variables the steps set, the built-ins. */
export function knownNames(definition: BotDefinition): Set<string> {
  const names = new Set<string>([...definition.userDataFields, ...BUILT_IN_VARIABLES]);
  for (const dialog of definition.dialogs)
    for (const step of dialog.steps) for (const name of variablesSetBy(step)) names.add(name);
  return names;
}
