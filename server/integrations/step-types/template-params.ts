/** What templated parameters may read: `{{userId}}`, `{{email}}`, `{{address.city}}`, `{{userData.email}}`, `{{variables.x}}`. */
export interface TemplateScope {
  readonly userId: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
}

const WHOLE = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*\}\}$/;
const ANY = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*\}\}/g;

/** True when a parameter value (at any depth) reads a variable. */
export function isTemplated(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(isTemplated);
  if (value && typeof value === 'object') return Object.values(value).some(isTemplated);
  return false;
}

/**
 * Fills `{{path}}` placeholders. A string that is only a placeholder takes the
 * variable's value as it is (a list stays a list; the schema coerces later); a
 * placeholder inside text is written into the text. A missing variable leaves
 * the parameter out, so a required one fails with a clear message.
 */
export function fillTemplates(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole?.[1]) return lookup(whole[1], scope);
    return value.replace(ANY, (_match, path: string) => {
      const found = lookup(path, scope);
      if (found === undefined || found === null) return '';
      return typeof found === 'object' ? JSON.stringify(found) : String(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => fillTemplates(item, scope)).filter((item) => item !== undefined);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const filled = fillTemplates(inner, scope);
      if (filled !== undefined) out[key] = filled;
    }
    return out;
  }
  return value;
}

function lookup(path: string, scope: TemplateScope): unknown {
  const [head, ...rest] = path.split('.');
  let current: unknown;
  if (head === 'userId' && rest.length === 0) return scope.userId;
  if (head === 'variables' || head === 'userData') current = scope[head];
  else {
    current =
      head !== undefined && Object.hasOwn(scope.variables, head)
        ? scope.variables[head]
        : head !== undefined
          ? scope.userData[head]
          : undefined;
  }
  for (const key of rest) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
