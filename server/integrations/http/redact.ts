/**
 * Secret redaction for the integration log (handbook decisions.md: "Secrets
 * never reach a record"). Two layers: by name (headers, JSON fields, query and
 * form fields) and by value (the credentials this very call used, wherever they
 * turn up, e.g. echoed back in a response body).
 */
export const REDACTED = '[redacted]';

const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-functions-key)$|api[-_]?key|token|secret|password|signature/i;
const SECRET_FIELD =
  /^(password|passwd|client_secret|access_token|refresh_token|id_token|api[-_]?key|secret|token|auth_?token|code)$/i;

export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : scrub(value, secrets)]),
  );
}

/** A URL with secret-looking query parameters (and user:password) replaced. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = REDACTED;
    for (const name of [...parsed.searchParams.keys()])
      if (SECRET_FIELD.test(name)) parsed.searchParams.set(name, REDACTED);
    return scrub(parsed.href, secrets);
  } catch {
    return scrub(url, secrets);
  }
}

/** Redacts secret fields in a JSON or form-encoded body; other text is only scrubbed by value. */
export function redactBodyText(text: string, contentType: string | undefined, secrets: readonly string[] = []): string {
  if (text === '') return text;
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
    try {
      return scrub(JSON.stringify(redactValue(JSON.parse(text))), secrets);
    } catch {
      // not JSON after all: fall through to the value scrub
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType ?? '')) {
    const form = new URLSearchParams(text);
    for (const name of [...form.keys()]) if (SECRET_FIELD.test(name)) form.set(name, REDACTED);
    return scrub(form.toString(), secrets);
  }
  return scrub(text, secrets);
}

/** Deep copy with secret-named fields replaced. */
export function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_FIELD.test(key) ? REDACTED : redactValue(inner)]),
    );
  }
  return value;
}

/** Replaces every occurrence of each known secret value (also base64 and URL-encoded forms are covered by the callers passing them). */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first: a secret that contains another must go whole, not leave its rest behind.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * The forms a secret value can take in a log row or a message: as is, URL-encoded, JSON-escaped
 * (a private key's line breaks) and, for a secret that is a URL (a Slack webhook), its path and
 * query, so the host still shows and the part that grants access does not.
 */
export function secretForms(value: string): string[] {
  const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      const tail = `${url.pathname}${url.search}`;
      if (tail.length >= 8) {
        forms.delete(value);
        forms.add(tail);
        forms.add(encodeURIComponent(tail));
      }
    } catch {
      // not a URL after all: kept whole
    }
  }
  return [...forms].filter((form) => form.length >= 4);
}
