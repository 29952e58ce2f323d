import type { AppDeps } from './deps.ts';

/**
 * A user clicked a URL button: record the click (urlTracker: userId,
 * timestamp, domain, url) and say where to send them. null for a token we did
 * not sign: the caller answers 400 and redirects nowhere.
 */
export async function openTrackedLink(deps: AppDeps, token: string): Promise<string | null> {
  const link = deps.links?.verify(token);
  if (!link) return null;
  let domain: string;
  try {
    const url = new URL(link.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    domain = url.hostname;
  } catch {
    return null;
  }
  await deps.store.appendLog('urlTracker', {
    userId: link.userId,
    timestamp: deps.clock.now(),
    data: { domain, url: link.url },
  });
  await deps.insights?.urlClick(link.userId, domain);
  return link.url;
}
