/** One object key of a path: `.name` when it reads as a name, else `["any key"]`. */
export function pathKey(key: string, first = false): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return first ? key : `.${key}`;
  return `[${JSON.stringify(key)}]`;
}

/** Formats a path the way people read it: `dialogs[2].steps[4].next`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += pathKey(String(part), out === '');
  }
  return out === '' ? '(root)' : out;
}
