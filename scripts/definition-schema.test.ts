import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { editorSchema as definitionJsonSchema } from '../server/bot/editor-schema.ts';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'bot-definition.schema.json');

describe('docs/bot-definition.schema.json', () => {
  it('when the definition schema changes, then the exported JSON Schema is regenerated with it', () => {
    const committed = readFileSync(file, 'utf8');
    const current = definitionJsonSchema();
    if (committed !== current) {
      throw new Error(
        'docs/bot-definition.schema.json has drifted from server/definition/schema.ts: run `npx tsx scripts/export-definition-schema.ts`',
      );
    }
    expect(committed).toBe(current);
  });
});

describe('the exported JSON Schema', () => {
  it('when an editor validates the demo bot with it, then the demo bot passes and a broken step fails', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
    const demo = JSON.parse(readFileSync(path.join(path.dirname(file), '..', 'demo', 'bot.json'), 'utf8')) as {
      dialogs: { steps: object[] }[];
    };
    expect(validate(demo), JSON.stringify(validate.errors)).toBe(true);
    demo.dialogs[0]!.steps[0] = { id: 'x', type: 'teleport' };
    expect(validate(demo)).toBe(false);
  });

  const compile = async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const formats = (await import('ajv-formats')).default;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    return ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
  };
  const botWith = (step: object) => ({
    settings: { id: 'x', name: 'X', startDialog: 'main' },
    integrations: { services: { crm: { baseUrl: 'https://crm.example.com/' } } },
    dialogs: [{ id: 'main', steps: [step] }],
  });

  // The step types' own parameter schemas (server/integrations/step-types) are shown as their types define them.
  it('when an editor shows help, then every property of the definition has a description', () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      for (const [key, inner] of Object.entries((n.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof inner.description !== 'string' && !at.includes('<if>')) missing.push(`${at}.${key}`);
        if (key !== 'params') walk(inner, `${at}.${key}`);
      }
      for (const key of ['items', 'additionalProperties', 'then']) walk(n[key], at);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const inner of (n[key] ?? []) as unknown[]) walk(inner, at);
      if (n.if) walk(n.if, `${at}<if>`);
    };
    walk(JSON.parse(readFileSync(file, 'utf8')), '');
    expect(missing).toEqual([]);
  });

  it('when a step type is misspelt, then the editor names the type and the allowed kinds, not every other step kind', async () => {
    const validate = await compile();
    expect(validate(botWith({ id: 'hi', type: 'mesage', text: 'hi' }))).toBe(false);
    expect(validate.errors).toEqual([
      expect.objectContaining({
        instancePath: '/dialogs/0/steps/0/type',
        keyword: 'enum',
        params: { allowedValues: expect.arrayContaining(['message']) },
      }),
    ]);
  });

  it('when an integration step has params its type does not take, then the editor flags them; a {{variable}} passes where a number goes', async () => {
    const validate = await compile();
    const extra = botWith({
      id: 'c',
      type: 'integration',
      integration: 'createUser',
      service: 'crm',
      params: { email: 'a@example.com', name: 'A', surname: 'B', nickname: 'x' },
    });
    expect(validate(extra)).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({
        instancePath: '/dialogs/0/steps/0/params',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'nickname' },
      }),
    );
    const radius = botWith({
      id: 'q',
      type: 'integration',
      integration: 'queryDataset',
      params: { dataset: 'places', radiusKm: 5 },
    });
    expect(validate(radius)).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({
        keyword: 'dependentRequired',
        params: expect.objectContaining({ property: 'radiusKm' }),
      }),
    );
    const templated = botWith({
      id: 'q',
      type: 'integration',
      integration: 'queryDataset',
      params: { dataset: 'places', lat: '{{lat}}', lon: '{{lon}}', radiusKm: 5 },
    });
    expect(validate(templated), JSON.stringify(validate.errors)).toBe(true);
  });
});
