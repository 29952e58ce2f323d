// Writes the bot definition's JSON Schema to docs/bot-definition.schema.json, so editors can
// validate definitions. scripts/definition-schema.test.ts fails when the file has drifted.
// Run: npx tsx scripts/export-definition-schema.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { editorSchema } from '../server/bot/editor-schema.ts';

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'bot-definition.schema.json');
writeFileSync(file, editorSchema());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
