import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { definitionJsonSchema } from '../server/definition/json-schema.ts';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'bot-definition.schema.json');

describe('docs/bot-definition.schema.json', () => {
  it('when the definition schema changes, then the exported JSON Schema is regenerated with it', () => {
    const committed = readFileSync(file, 'utf8');
    const current = definitionJsonSchema();
    if (committed !== current) {
      throw new Error('docs/bot-definition.schema.json has drifted from server/definition/schema.ts: run `npx tsx scripts/export-definition-schema.ts`');
    }
    expect(committed).toBe(current);
  });
});

describe('the exported JSON Schema', () => {
  it('when an editor validates the demo bot with it, then the demo bot passes and a broken step fails', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
    const demo = JSON.parse(readFileSync(path.join(path.dirname(file), '..', 'demo', 'bot.json'), 'utf8')) as { dialogs: { steps: object[] }[] };
    expect(validate(demo), JSON.stringify(validate.errors)).toBe(true);
    demo.dialogs[0]!.steps[0] = { id: 'x', type: 'teleport' };
    expect(validate(demo)).toBe(false);
  });
});
