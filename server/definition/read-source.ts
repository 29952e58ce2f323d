import { readFile } from 'node:fs/promises';
import { isNode, parseDocument, type Document } from 'yaml';
import type { Problem } from './problem.ts';

/** Larger than any hand-written bot by far; a bound before parsing, so a wrong file cannot exhaust memory. */
export const MAX_DEFINITION_BYTES = 5 * 1024 * 1024;

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
      return { problems: [{ path: '(file)', message: `is ${bytes.length} bytes; a definition may have at most ${MAX_DEFINITION_BYTES}` }] };
    }
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problems: [{ path: '(file)', message: `cannot be read (${code ?? String(error)})`, hint: code === 'ENOENT' ? 'check the path; BOT_DEFINITION names the file' : undefined }] };
  }
  return isYaml(file) ? parseYaml(text) : parseJson(text);
}

function parseJson(text: string): { value: unknown } | { problems: Problem[] } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const at = /at position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const { line, column } = lineAndColumn(text, offset);
    const what = message.replace(/\s*in JSON at position \d+.*$/s, '').replace(/^Unexpected end of JSON input$/, 'the file ends too early');
    return { problems: [{ path: `line ${line}, column ${column}`, message: `not valid JSON: ${what}`, hint: jsonHint(text, offset) }] };
  }
}

/** The usual slips of people writing JSON by hand. */
function jsonHint(text: string, offset: number): string | undefined {
  const before = text.slice(0, offset).trimEnd();
  const next = text.slice(offset).trimStart()[0];
  if (before.endsWith(',') && (next === '}' || next === ']')) return 'remove the comma before it: JSON allows no trailing comma';
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
        return { path: `line ${line}, column ${column}`, message: `not valid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}` };
      }),
    };
  }
  return { value: doc.toJS({ maxAliasCount: 100 }), lineOf: (path) => lineOfPath(doc, text, path) };
}

/** The line of `dialogs[2].steps[0].text` in the YAML text: of the key's value, else of the nearest parent that exists. */
function lineOfPath(doc: Document, text: string, path: string): number | undefined {
  const parts = [...path.matchAll(/\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]|\.?([A-Za-z_$][\w$-]*)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : (m[2] ?? m[3])!));
  for (let end = parts.length; end > 0; end--) {
    const node = doc.getIn(parts.slice(0, end), true);
    if (isNode(node) && node.range) return lineAndColumn(text, node.range[0]).line;
  }
  return undefined;
}
