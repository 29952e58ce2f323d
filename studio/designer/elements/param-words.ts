import type { DesignerStrings } from '../i18n/strings.ts';
import type { FieldSpec } from '../model/schema-form.ts';
import { labelFor } from './form-context.ts';

/**
 * An integration parameter's field in the studio's words: a label in the person's language for each
 * (the step types' schemas name them by JSON key: `endpoint`, `urlSecret`), and help where the step
 * type's schema has no description. A customer's own step type keeps its own descriptions.
 */
export function inParamWords(t: DesignerStrings, type: string, spec: FieldSpec): FieldSpec {
  const help = spec.description ?? t.paramHelp[`${type}.${spec.key}`];
  return {
    ...spec,
    label: labelFor(t, spec.key, true),
    ...(help === undefined ? {} : { description: help }),
    ...(spec.fields ? { fields: spec.fields.map((inner) => inParamWords(t, type, inner)) } : {}),
  };
}
