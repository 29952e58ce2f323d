import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_BOT_DEFINITION } from '../config.ts';
import { canonicalText, definitionHash, exportDefinition, type ExportFormat } from './canonical.ts';
import { parseDefinitionText } from './read-source.ts';

const FORMATS: ExportFormat[] = ['json', 'yaml'];

/** Parses an exported text as it comes back from a file or a response: through UTF-8 bytes. */
function parsed(text: string, format: ExportFormat): unknown {
  const result = parseDefinitionText(Buffer.from(text, 'utf8').toString('utf8'), format);
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

/** Keys that mean something to JavaScript, YAML or a document store, and strings that look like other types. */
const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  '<<',
  'a.b',
  '$where',
  '',
  ' ',
  '-',
  'null',
  'true',
  '1',
  '0x1',
  '#',
  'key: value',
  '\u2028',
  '🤖',
);
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    'yes',
    'no',
    'on',
    '~',
    'null',
    '1.0',
    '0o7',
    '.inf',
    '- item',
    '? x',
    '|',
    '>-',
    '"',
    "'",
    '#c',
    '&a',
    '*a',
    '!!str',
    '%YAML',
    '---',
    '...',
    ' lead',
    'trail ',
    'a\nb',
    'a\r\nb',
    '\t',
    '\u0000',
    '\uFEFF',
    '<script>alert(1)</script>',
    '{{name}}',
  ),
);
const scalar = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const loose = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Definition-shaped values, valid or not, with their keys in random order, hostile keys and strings where the schema leaves space. */
const step = fc.record(
  {
    type: fc.constantFrom('message', 'input', 'integration', 'event', 'goto', 'unknownKind'),
    id: fc.constantFrom('ask', 'hello', 'call', 'bye'),
    text: hostileString,
    prompt: hostileString,
    next: fc.constantFrom('bye', 'ask'),
    buttons: fc.array(
      fc.record({ label: hostileString, kind: fc.constantFrom('postback', 'url', 'dialog'), payload: hostileString }),
      { maxLength: 2 },
    ),
    params: fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), loose, { maxKeys: 4 }),
    payload: fc.dictionary(hostileKey, loose, { maxKeys: 3 }),
    then: fc.oneof(fc.constant('bye'), fc.record({ step: fc.constant('ask'), dialog: fc.constant('main') })),
    extra: loose,
  },
  { requiredKeys: ['type', 'id'] },
);
const definition = fc.record(
  {
    pageEvents: fc.array(fc.record({ dialog: fc.constant('main'), name: hostileString }), { maxLength: 2 }),
    dialogs: fc.array(
      fc.record({ steps: fc.array(step, { maxLength: 4 }), id: fc.constantFrom('main', 'order', 'help') }),
      { maxLength: 3 },
    ),
    settings: fc.record(
      {
        startDialog: fc.constant('main'),
        name: hostileString,
        id: fc.constant('bot'),
        synonyms: fc.array(fc.array(hostileString, { maxLength: 3 }), { maxLength: 2 }),
      },
      { requiredKeys: ['id'] },
    ),
    integrations: fc.record({
      services: fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), loose, { maxKeys: 3 }),
    }),
    $schema: hostileString,
    unknownTopLevel: loose,
  },
  { requiredKeys: ['settings', 'dialogs'] },
);

/** The same value with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse())
    Object.defineProperty(out, key, {
      value: reversed((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

describe('the canonical text and the exported files', () => {
  it('when the demo bot is exported as JSON or YAML and read back, then it is the same version (same hash), and exporting it again gives the same bytes', async () => {
    const file = parsed(await readFile(DEMO_BOT_DEFINITION, 'utf8'), 'json');
    const hash = definitionHash(file);
    for (const format of FORMATS) {
      const text = exportDefinition(file, format);
      const back = parsed(text, format);
      expect(definitionHash(back)).toBe(hash);
      expect(exportDefinition(back, format)).toBe(text);
    }
    // The exported file leads with who the bot is, and each step with its id and type.
    const json = exportDefinition(file, 'json');
    expect(json.indexOf('"settings"')).toBeLessThan(json.indexOf('"dialogs"'));
    expect(json).toMatch(/\{\n\s+"id": "[^"]+",\n\s+"type": "/);
    expect(json.endsWith('}\n')).toBe(true);
  });

  it('when generated definitions with hostile keys and strings are exported and read back, then nothing is lost and a second export is byte for byte the first', () => {
    fc.assert(
      fc.property(definition, fc.constantFrom(...FORMATS), (value, format) => {
        const text = exportDefinition(value, format);
        const back = parsed(text, format);
        expect(canonicalText(back)).toBe(canonicalText(value));
        expect(exportDefinition(back, format)).toBe(text);
      }),
      { numRuns: 100, seed: 22 },
    );
  });

  it('when the same definition comes with its keys in another order, or as YAML instead of JSON, then its hash and its export are the same', () => {
    fc.assert(
      fc.property(definition, (value) => {
        expect(definitionHash(reversed(value))).toBe(definitionHash(value));
        expect(exportDefinition(reversed(value), 'json')).toBe(exportDefinition(value, 'json'));
        expect(definitionHash(parsed(exportDefinition(value, 'yaml'), 'yaml'))).toBe(definitionHash(value));
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  it('when definitions differ in one value, then their hashes differ', () => {
    const a = { settings: { id: 'bot', name: 'A' }, dialogs: [] };
    expect(definitionHash(a)).not.toBe(definitionHash({ ...a, settings: { id: 'bot', name: 'B' } }));
    expect(definitionHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when a "__proto__" key is in the data, then it stays a key and never becomes a prototype', () => {
    const value = JSON.parse(
      '{"settings":{"id":"bot"},"integrations":{"services":{"__proto__":{"polluted":true}}}}',
    ) as unknown;
    const back = parsed(exportDefinition(value, 'yaml'), 'yaml') as {
      integrations: { services: Record<string, unknown> };
    };
    expect(Object.keys(back.integrations.services)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(canonicalText(back)).toBe(canonicalText(value));
  });
});

describe('reading a definition text within bounds', () => {
  it('when JSON nests deeper than 32 levels, then it is refused before parsing, naming the bound', () => {
    const deep = `{"settings":${'['.repeat(40)}${']'.repeat(40)}}`;
    expect(parseDefinitionText(deep, 'json')).toEqual({
      problems: [
        expect.objectContaining({ path: '(file)', message: expect.stringContaining('nested deeper than 32 levels') }),
      ],
    });
    // Brackets inside strings are text, not nesting.
    expect(parseDefinitionText(JSON.stringify({ text: '['.repeat(100) }), 'json')).toEqual({
      value: { text: '['.repeat(100) },
      lineOf: undefined,
    });
  });

  it('when YAML nests deeper than 32 levels, or hides a billion laughs in aliases, then it is refused', () => {
    const deep = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' end\n';
    expect(parseDefinitionText(deep, 'yaml')).toEqual({
      problems: [expect.objectContaining({ message: expect.stringContaining('nested deeper than 32 levels') })],
    });
    const flow = `a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    expect('problems' in parseDefinitionText(flow, 'yaml')).toBe(true);
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      ),
    ].join('\n');
    expect(parseDefinitionText(laughs, 'yaml')).toEqual({
      problems: [expect.objectContaining({ message: expect.stringContaining('aliases') })],
    });
  });

  it('when a text is over 5 MB, then it is refused by its size', () => {
    const big = JSON.stringify({ text: 'x'.repeat(5 * 1024 * 1024) });
    expect(parseDefinitionText(big, 'json')).toEqual({
      problems: [
        expect.objectContaining({
          message: expect.stringMatching(/^is \d+ bytes; a definition may have at most 5242880$/),
        }),
      ],
    });
  });

  it('when a text of a few MB holds more than 500,000 values, then it is refused by their number', () => {
    const many = JSON.stringify({ values: Array.from({ length: 600_000 }, () => 1) });
    expect(parseDefinitionText(many, 'json')).toEqual({
      problems: [expect.objectContaining({ message: expect.stringContaining('more than 500000 values') })],
    });
  });
});
