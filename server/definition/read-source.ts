import { readFile } from 'node:fs/promises';
import { isNode, parseDocument, type Document } from 'yaml';
import { MAX_JSON_DEPTH, checkJsonBounds, describeJsonExcess, type JsonBounds } from '../../shared/json-bounds.ts';
import type { Problem } from './problem.ts';

/** Larger than any hand-written bot by far; a bound before parsing, so a wrong file cannot exhaust memory. */
export const MAX_DEFINITION_BYTES = 5 * 1024 * 1024;

/**
 * Bounds on the parsed value, checked before the schema (and everything after it) recurses
 * into it: the demo bot holds about 1,500 values, a generated bot of 5 MB some 300,000.
 */
export const DEFINITION_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxNodes: 500_000 };

/** A definition file is YAML when its name says so, JSON otherwise. */
export function isYaml(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

/** A parsed definition; a YAML one can say on which line a path is, for problems to name it. */
export interface DefinitionSource {
  readonly value: unknown;
  readonly lineOf?: (path: string) => number | undefined;
}

/** Reads and parses the file; syntax errors name the line and column. */
export async function readDefinitionSource(file: string): Promise<DefinitionSource | { problems: Problem[] }> {
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > MAX_DEFINITION_BYTES) {
      return {
        problems: [
          {
            path: '(file)',
            message: `is ${bytes.length} bytes; a definition may have at most ${MAX_DEFINITION_BYTES}`,
          },
        ],
      };
    }
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      problems: [
        {
          path: '(file)',
          message: `cannot be read (${code ?? String(error)})`,
          hint: code === 'ENOENT' ? 'check the path; BOT_DEFINITION names the file' : undefined,
        },
      ],
    };
  }
  return parseDefinitionText(text, isYaml(file) ? 'yaml' : 'json');
}

/**
 * Parses a definition's text (a file's, or a request body's) within the bounds: its size, then
 * (JSON) its nesting before parsing, then the parsed value's depth and number of values.
 */
export function parseDefinitionText(text: string, format: 'json' | 'yaml'): DefinitionSource | { problems: Problem[] } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_DEFINITION_BYTES)
    return {
      problems: [
        { path: '(file)', message: `is ${bytes} bytes; a definition may have at most ${MAX_DEFINITION_BYTES}` },
      ],
    };
  if (format === 'json' && nestedDeeperThan(text, DEFINITION_BOUNDS.maxDepth))
    return { problems: [tooDeep(DEFINITION_BOUNDS.maxDepth)] };
  let parsed: DefinitionSource | { problems: Problem[] };
  try {
    parsed = format === 'yaml' ? parseYaml(text) : parseJson(text);
  } catch (error) {
    // The YAML parser recurses with the nesting; past what the stack holds it throws RangeError.
    if (error instanceof RangeError) return { problems: [tooDeep(DEFINITION_BOUNDS.maxDepth)] };
    // Aliases that expand without end ("billion laughs") stop at maxAliasCount with a ReferenceError.
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      return {
        problems: [
          {
            path: '(file)',
            message: 'is refused because its aliases (*name) expand to too many values',
            hint: 'write the repeated parts out, or use fewer aliases',
          },
        ],
      };
    }
    throw error;
  }
  if ('problems' in parsed) return parsed;
  const excess = checkJsonBounds(parsed.value, DEFINITION_BOUNDS);
  if (excess) {
    const hint =
      excess.limit === 'depth'
        ? `nest objects and arrays at most ${excess.max} levels deep`
        : 'split the bot, or move data into a background dataset';
    return { problems: [{ path: '(file)', message: `is refused because ${describeJsonExcess(excess)}`, hint }] };
  }
  return parsed;
}

function tooDeep(max: number): Problem {
  return {
    path: '(file)',
    message: `is refused because it is nested deeper than ${max} levels`,
    hint: `nest objects and arrays at most ${max} levels deep`,
  };
}

/** Whether JSON text opens more than `max` objects or arrays inside each other, counted outside strings, before any parsing. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function parseJson(text: string): { value: unknown } | { problems: Problem[] } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const { line, column } = lineAndColumn(text, offset);
    const what = message
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/^Unexpected end of JSON input$/, 'the file ends too early');
    return {
      problems: [
        { path: `line ${line}, column ${column}`, message: `not valid JSON: ${what}`, hint: jsonHint(text, offset) },
      ],
    };
  }
}

/** The usual slips of people writing JSON by hand. */
function jsonHint(text: string, offset: number): string | undefined {
  const before = text.slice(0, offset).trimEnd();
  const next = text.slice(offset).trimStart()[0];
  if (before.endsWith(',') && (next === '}' || next === ']'))
    return 'remove the comma before it: JSON allows no trailing comma';
  if (next === "'") return 'use double quotes: JSON strings and keys take "…"';
  if (next === '/') return 'JSON has no comments; write the definition in YAML (bot.yaml) to keep comments';
  return undefined;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function parseYaml(text: string): DefinitionSource | { problems: Problem[] } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.slice(0, 20).map((error) => {
        const { line, column } = lineAndColumn(text, error.pos[0]);
        return {
          path: `line ${line}, column ${column}`,
          message: `not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        };
      }),
    };
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), lineOf: (path) => lineOfPath(doc, text, path) };
}

/** The line of `dialogs[2].steps[0].text` in the YAML text: of the key's value, else of the nearest parent that exists. */
function lineOfPath(doc: Document, text: string, path: string): number | undefined {
  const parts = [...path.matchAll(/\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\.?([A-Za-z_$][\w$-]*)/g)].map((m) =>
    m[1] !== undefined ? Number(m[1]) : (m[2] ?? m[3])!,
  );
  for (let end = parts.length; end > 0; end--) {
    const node = doc.getIn(parts.slice(0, end), true);
    if (isNode(node) && node.range) return lineAndColumn(text, node.range[0]).line;
  }
  return undefined;
}
