import { describe, expect, it } from 'vitest';
import { editorSchema } from '../../../server/bot/editor-schema.ts';
import { BUILT_IN_STEP_TYPES } from '../../../server/integrations/step-types/registry.ts';
import { LOCALES } from './i18n.ts';

type Node = Readonly<Record<string, unknown>>;

/** Every property of a schema tree as [key, schema], however deep. */
function properties(node: unknown): [string, Node][] {
  if (Array.isArray(node)) return node.flatMap(properties);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Node).flatMap(([key, value]) =>
    key === 'properties' && value && typeof value === 'object'
      ? Object.entries(value as Node).flatMap(([name, inner]) => [
          [name, inner as Node] as [string, Node],
          ...properties(inner),
        ])
      : properties(value),
  );
}

/** The keys of a schema tree's properties, but not those under an integration's `params` (they have words of their own). */
function fieldKeys(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(fieldKeys);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Node).flatMap(([key, value]) =>
    key === 'properties' && value && typeof value === 'object'
      ? Object.entries(value as Node).flatMap(([name, inner]) => [name, ...(name === 'params' ? [] : fieldKeys(inner))])
      : fieldKeys(value),
  );
}

/** Lists whose values are what a person reads elsewhere too: HTTP methods, an API's own field names, and the step kinds (named by the palette). */
const SHOWN_AS_THEY_ARE = new Set(['method', 'maxTokensField']);

describe("the designer's words for lists and integration parameters", () => {
  const schema = JSON.parse(editorSchema({ ownStepTypes: [] })) as Node;
  const enums = [
    ...properties(schema).filter(([key]) => key !== 'type' || true),
    ...BUILT_IN_STEP_TYPES.flatMap((type) => properties(type.paramsSchema)),
  ].filter(([key, node]) => Array.isArray(node.enum) && !SHOWN_AS_THEY_ARE.has(key));

  for (const [language, t] of Object.entries(LOCALES)) {
    it(`when a list offers a field's values, then each value has words in ${language}`, () => {
      expect(enums.map(([key]) => key)).toEqual(expect.arrayContaining(['inputType', 'op', 'timing', 'priority']));
      const missing = enums.flatMap(([key, node]) =>
        (node.enum as unknown[])
          .filter((value) => t.options[key]?.[String(value)] === undefined && t.ops[String(value)] === undefined)
          .filter((value) => !(key === 'type' && String(value) in t.kinds))
          .map((value) => `${key}: ${String(value)}`),
      );
      expect(missing).toEqual([]);
    });

    it(`when a form shows a field of the definition, then its label is in ${language}, not its key made readable`, () => {
      // Keys no form labels: the file's own, the outline's, and the condition builder's (it has its own words).
      const unlabelled = new Set(['$schema', 'dialogs', 'steps', 'type', 'when']);
      const keys = [...new Set(fieldKeys(schema))];
      expect(keys.length).toBeGreaterThan(100);
      expect(keys.filter((key) => !unlabelled.has(key) && t.fields[key] === undefined)).toEqual([]);
    });

    it(`when an integration step type of the server's is opened, then each parameter has a label in ${language}, and help where its schema has none`, () => {
      const unlabelled: string[] = [];
      const helpless: string[] = [];
      for (const type of BUILT_IN_STEP_TYPES)
        for (const [key, node] of Object.entries((type.paramsSchema.properties ?? {}) as Node)) {
          if (t.paramFields[key] === undefined) unlabelled.push(`${type.name}.${key}`);
          if ((node as Node).description === undefined && t.paramHelp[`${type.name}.${key}`] === undefined)
            helpless.push(`${type.name}.${key}`);
        }
      expect(unlabelled).toEqual([]);
      expect(helpless).toEqual([]);
    });
  }
});
