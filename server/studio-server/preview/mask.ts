import type { MaskedRequest } from '../../../shared/preview-protocol.ts';
import type { OutboundRequest } from '../../ports/outbound-gate.ts';

/** A secret the definition names (`tokenEnv: "CRM_TOKEN"`) with the value it has on this server. */
export interface NamedSecret {
  readonly name: string;
  readonly value: string;
}

/** Headers that carry credentials whatever their value: their credential part is always masked. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie|x-functions-key)$|api[-_]?key|token|secret|password/i;
/** Fields of a JSON or form body, and query parameters, that carry credentials. */
const CREDENTIAL_FIELD =
  /^(password|passwd|client_secret|access_token|refresh_token|id_token|api[-_]?key|secret|token|auth_?token)$/i;
export const HIDDEN = '‹hidden›';
/** Longest body shown; a preview shows what a person can read. */
const MAX_SHOWN = 16 * 1024;

/**
 * The names of the secrets a definition reads (every `…Env` field: tokenEnv, passwordEnv,
 * clientSecretEnv, durationEnv, …) with their values from `env`, longest first so a secret that
 * contains another is masked whole.
 */
export function namedSecrets(written: unknown, env: Readonly<Record<string, string | undefined>>): NamedSecret[] {
  const names = new Set<string>();
  const stack: unknown[] = [written];
  // Iterative and bounded: the definition passed its checks, but this walk must not be the weak spot.
  for (let seen = 0; stack.length > 0 && seen < 200_000; seen++) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (/Env$/.test(key) && typeof inner === 'string') names.add(inner);
        else stack.push(inner);
      }
    }
  }
  return [...names]
    .flatMap((name) => {
      const value = env[name];
      return typeof value === 'string' && value.length >= 4 ? [{ name, value }] : [];
    })
    .sort((a, b) => b.value.length - a.value.length);
}

/** Every occurrence of a secret's value, plainly, base64- or URL-encoded, becomes `‹NAME›`. */
export function maskText(text: string, secrets: readonly NamedSecret[]): string {
  let out = text;
  for (const { name, value } of secrets) {
    for (const form of new Set([value, Buffer.from(value).toString('base64'), encodeURIComponent(value)])) {
      if (form.length >= 4) out = out.split(form).join(`‹${name}›`);
    }
  }
  return out;
}

/** A credential header's value: its scheme kept (`Bearer`, `Basic`), the rest masked by name, else hidden. */
function maskCredential(value: string, secrets: readonly NamedSecret[]): string {
  const scheme = /^([A-Za-z][A-Za-z0-9-]*)\s+(.+)$/.exec(value);
  const masked = maskText(scheme ? scheme[2]! : value, secrets);
  const shown = /^‹[A-Za-z0-9_]+›$/.test(masked) ? masked : HIDDEN;
  return scheme ? `${scheme[1]} ${shown}` : shown;
}

function maskBody(text: string, contentType: string | undefined, secrets: readonly NamedSecret[]): string {
  const cut = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(cut)) {
    try {
      return maskText(JSON.stringify(maskFields(JSON.parse(cut)), null, 2), secrets);
    } catch {
      // not JSON after all: masked by value below
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType ?? '')) {
    const form = new URLSearchParams(cut);
    for (const name of [...form.keys()]) if (CREDENTIAL_FIELD.test(name)) form.set(name, HIDDEN);
    return maskText(form.toString(), secrets);
  }
  return maskText(cut, secrets);
}

/** A copy with credential-named fields hidden; bounded by the JSON it came from (parsed, so finite). */
export function maskFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskFields);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        CREDENTIAL_FIELD.test(key) && typeof inner === 'string' ? HIDDEN : maskFields(inner),
      ]),
    );
  }
  return value;
}

function maskUrl(url: string, secrets: readonly NamedSecret[]): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'hidden';
    for (const name of [...parsed.searchParams.keys()])
      if (CREDENTIAL_FIELD.test(name)) parsed.searchParams.set(name, 'hidden');
    return maskText(parsed.href, secrets);
  } catch {
    return maskText(url, secrets);
  }
}

/** The request as it would go out, for the author's eyes: every credential masked, the rest exactly as sent. */
export function maskRequest(request: OutboundRequest, secrets: readonly NamedSecret[]): MaskedRequest {
  const headers = Object.entries(request.headers ?? {}).map(([name, value]): [string, string] => [
    name,
    CREDENTIAL_HEADER.test(name) ? maskCredential(value, secrets) : maskText(value, secrets),
  ]);
  const contentType = Object.entries(request.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
  const body = request.body === undefined ? null : maskBody(request.body.toString('utf8'), contentType, secrets);
  return { method: request.method.toUpperCase(), url: maskUrl(request.url, secrets), headers, body };
}

/** A response body for the author: masked the same way. */
export function maskResponseBody(
  body: Buffer,
  contentType: string | undefined,
  secrets: readonly NamedSecret[],
): string {
  return maskBody(body.toString('utf8'), contentType, secrets);
}
