/**
 * Secret redaction for the integration log (handbook decisions.md: "Secrets
 * never reach a record"). Two layers: by name (headers, JSON fields, query and
 * form fields) and by value (the credentials this very call used, wherever they
 * turn up, e.g. echoed back in a response body).
 */
export const REDACTED = '[redacted]';

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-functions-key)$|api[-_]?key|token|secret|password/i;
const SECRET_FIELD = /^(password|passwd|client_secret|access_token|refresh_token|id_token|api[-_]?key|secret|token|auth_?token|code)$/i;

export function redactHeaders(headers: Readonly<Record<string, string>>, secrets: readonly string[] = []): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : scrub(value, secrets)]),
  );
}

/** A URL with secret-looking query parameters (and user:password) replaced. */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = REDACTED;
    for (const name of [...parsed.searchParams.keys()]) if (SECRET_FIELD.test(name)) parsed.searchParams.set(name, REDACTED);
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
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_FIELD.test(key) ? REDACTED : redactValue(inner)]));
  }
  return value;
}

/** Replaces every occurrence of each known secret value (also base64 and URL-encoded forms are covered by the callers passing them). */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}
