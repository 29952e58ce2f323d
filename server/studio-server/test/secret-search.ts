/**
 * Every form a secret could take in text a person or program reads: as is, JSON-escaped,
 * percent-encoded (whole or as a query value), and base64 (any alignment, standard or URL-safe,
 * found by decoding every base64-looking run of the text).
 */
export function findSecret(haystack: string, secret: string): string[] {
  const forms: Record<string, string> = {
    raw: secret,
    json: JSON.stringify(secret).slice(1, -1),
    percent: encodeURIComponent(secret),
    form: new URLSearchParams({ v: secret }).toString().slice(2),
    base64: Buffer.from(secret).toString('base64'),
    base64url: Buffer.from(secret).toString('base64url'),
  };
  const found = Object.entries(forms)
    .filter(([, form]) => haystack.includes(form))
    .map(([name]) => name);
  for (const run of haystack.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) {
    for (const alphabet of ['base64', 'base64url'] as const) {
      if (
        Buffer.from(run, alphabet).toString('latin1').includes(secret) ||
        Buffer.from(run, alphabet).toString('utf8').includes(secret)
      )
        found.push(`inside ${alphabet} ${run.slice(0, 24)}…`);
    }
  }
  return found;
}
