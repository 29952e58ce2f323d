import { PublicBases, proxiedWarning } from '../api/public-origin.ts';
import { createLinkSigner } from '../api/url-tracker.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../ports/logger.ts';

/**
 * Links the bot sends are built from the public name: PUBLIC_URL, else what each visitor connected
 * by (public-origin.ts), else the address the server listens on (`fallback`, known once it listens).
 */
export function publicLinks(config: Config, sessionSecret: string, fallback: () => string, logger: Logger) {
  const bases = new PublicBases({
    configured: config.PUBLIC_URL,
    fallback,
    onProxied: (origin) =>
      logger.warn({ event: 'public_url_unset', origin, setting: 'PUBLIC_URL' }, proxiedWarning(origin, fallback())),
  });
  const links = createLinkSigner(sessionSecret, (userId) => bases.baseFor(userId), config.SESSION_SECRET_PREVIOUS);
  return { bases, links };
}
