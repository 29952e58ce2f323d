/**
 * Where the bot may send its Bot Framework token. A reply goes to the activity's `serviceUrl`, and
 * the request carries the bot's access token: an activity whose serviceUrl pointed elsewhere (a
 * forged one, or a reference a dialog overwrote) would hand the token to that host. So every
 * serviceUrl, inbound and before each send, must match one of these origins.
 */

/** One allowed origin: a scheme, a host (or `*.` and a domain: any subdomain of it, not the domain itself) and a port. */
export interface ServiceUrlRule {
  readonly protocol: string;
  readonly host: string;
  readonly anySubdomain: boolean;
  readonly port: string;
}

/** Parses `https://host[:port]` or `https://*.domain`; throws with a sentence for the configuration error. */
export function serviceUrlRule(text: string): ServiceUrlRule {
  const anySubdomain = /^[a-z]+:\/\/\*\./i.test(text);
  let url: URL;
  try {
    url = new URL(anySubdomain ? text.replace('*.', 'wildcard.') : text);
  } catch {
    throw new Error(`"${text}" is not an origin such as https://smba.trafficmanager.net or https://*.botframework.com`);
  }
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new Error(`"${text}" must be an origin only (scheme, host, port), without a path`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`"${text}" must start with https:// (or http:// for a stand-in on this machine)`);
  return {
    protocol: url.protocol,
    host: anySubdomain ? url.hostname.slice('wildcard.'.length) : url.hostname,
    anySubdomain,
    port: url.port,
  };
}

/** Whether a serviceUrl may receive the bot's token: parsed as a URL, no credentials in it, its origin allowed. */
export function serviceUrlAllowed(serviceUrl: string, rules: readonly ServiceUrlRule[]): boolean {
  let url: URL;
  try {
    url = new URL(serviceUrl);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return rules.some(
    (rule) =>
      rule.protocol === url.protocol &&
      rule.port === url.port &&
      (rule.anySubdomain ? host.endsWith(`.${rule.host}`) : host === rule.host),
  );
}
