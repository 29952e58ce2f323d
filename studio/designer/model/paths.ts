import { isObject, type Path } from './types.ts';

/** A path as people (and `chatbot check`) write it: `dialogs[2].steps[4].next`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Reads a problem's path back (`dialogs[2].steps[0].branches[1].when[0].value`, `params["a b"]`).
 * A YAML line suffix (` (line 4)`) and `(root)`/`(file)` are dropped; what cannot be read ends the path.
 */
export function parsePath(text: string): (string | number)[] {
  const source = text.replace(/ \(line \d+\)$/, '');
  if (source === '(root)' || source === '(file)') return [];
  const out: (string | number)[] = [];
  const token = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < source.length) {
    token.lastIndex = at;
    const match = token.exec(source);
    if (!match) break;
    if (match[1] !== undefined) out.push(match[1]);
    else if (match[2] !== undefined) out.push(Number(match[2]));
    else out.push(JSON.parse(match[3]!) as string);
    at = token.lastIndex;
  }
  return out;
}

/** The value at a path, or undefined. */
export function getAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const part of path) {
    if (typeof part === 'number') value = Array.isArray(value) ? value[part] : undefined;
    else value = isObject(value) ? value[part] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * A copy of `root` with `value` at `path`, sharing every untouched branch (so undo keeps whole
 * snapshots cheaply). `undefined` removes the key (an array item is spliced out). Missing
 * containers on the way are made: an object, or an array where the next part is an index.
 */
export function setAt<T>(root: T, path: Path, value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(root) ? [...(root as unknown[])] : [];
    if (rest.length === 0 && value === undefined) list.splice(head, 1);
    else list[head] = setAt(list[head], rest, value);
    return list as T;
  }
  const object: Record<string, unknown> = isObject(root) ? { ...root } : {};
  if (rest.length === 0 && value === undefined) delete object[head!];
  else object[head!] = setAt(object[head!] ?? (typeof rest[0] === 'number' ? [] : undefined), rest, value);
  return object as T;
}

/** Whether `inner` lies at or under `outer`. */
export function isUnder(inner: Path, outer: Path): boolean {
  return outer.length <= inner.length && outer.every((part, i) => inner[i] === part);
}
