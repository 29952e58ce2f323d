/**
 * `{{name}}` and `{{a.b.c}}` templates. Variables win over user-data fields of
 * the same name. A missing name renders empty and is reported to `onMissing`,
 * so the caller can log it once instead of the user seeing "{{name}}".
 */
export function renderTemplate(
  template: string,
  scopes: readonly Readonly<Record<string, unknown>>[],
  onMissing: (name: string) => void,
  escape: (value: string) => string = (value) => value,
): string {
  return template.replace(/\{\{\s*([A-Za-z_][\w]*(?:\.[\w]+)*)\s*\}\}/g, (_match, name: string) => {
    for (const scope of scopes) {
      const value = lookup(scope, name);
      if (value !== undefined && value !== null) return escape(stringify(value));
    }
    onMissing(name);
    return '';
  });
}

function lookup(scope: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = scope;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function stringify(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Escapes what the safe markdown subset reads as markup, so a value the user
 * typed (a name such as "[x](https://evil)") shows as typed instead of becoming a link.
 */
export function escapeMarkdown(value: string): string {
  return value.replace(/[\\`*_[\]()]/g, '\\$&');
}

/** Reads a dotted path such as "triggerData.status" from the first scope that has it. */
export function readPath(scopes: readonly Readonly<Record<string, unknown>>[], path: string): unknown {
  for (const scope of scopes) {
    const value = lookup(scope, path);
    if (value !== undefined) return value;
  }
  return undefined;
}
