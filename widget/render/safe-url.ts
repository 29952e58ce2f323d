/**
 * Only web addresses become links or image sources; `javascript:` and friends never do.
 * A root-relative one (`/images/robot.svg`) belongs to the bot, so it resolves against the
 * chat server's URL: the widget runs on the customer's page, another origin.
 */
export function safeUrl(url: string, baseUrl?: string): string | null {
  if (/^https?:\/\//i.test(url)) return url;
  if (!url.startsWith('/')) return null;
  try {
    const resolved = new URL(url, new URL(baseUrl ?? '', location.href));
    return /^https?:$/.test(resolved.protocol) ? resolved.href : null;
  } catch {
    return null;
  }
}
