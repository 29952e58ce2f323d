import { z } from 'zod';
import { botDefinitionSchema } from './schema.ts';

/**
 * The definition schema as JSON Schema (draft 2020-12) text, for editors.
 * `io: 'input'`: fields with defaults are optional, as a person writes them.
 * Cross-reference rules (targets exist, ids unique) are checked by the loader only.
 */
export function definitionJsonSchema(): string {
  const schema = z.toJSONSchema(botDefinitionSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify(
    {
      ...schema,
      $id: 'https://chatbot.invalid/bot-definition.schema.json',
      title: 'Bot definition',
      description: 'One bot: settings, user-data fields, dialogs of steps, intents, FAQ pairs, integrations. See docs/bot-definition.md.',
    },
    null,
    2,
  )}\n`;
}
