import type { Server as HttpServer } from 'node:http';
import { linkBaseWarning, listenFallback } from '../api/public-origin.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../ports/logger.ts';

/**
 * Listens on HOST and PORT; answers the URL it answers on and the base URL links are made of.
 * Never a link to 0.0.0.0: the "every interface" address becomes localhost, and start-up says to set PUBLIC_URL.
 */
export async function listenAt(
  http: HttpServer,
  config: Config,
  logger: Logger,
): Promise<{ readonly url: string; readonly baseUrl: string }> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, config.HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  const baseUrl = config.PUBLIC_URL ?? listenFallback(url);
  const linkWarning = linkBaseWarning({ publicUrl: config.PUBLIC_URL, host: config.HOST, fallback: baseUrl });
  if (linkWarning) logger.warn({ event: 'public_url_unset', host: config.HOST, setting: 'PUBLIC_URL' }, linkWarning);
  return { url, baseUrl };
}
