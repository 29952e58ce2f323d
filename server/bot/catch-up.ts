import type { BotHost } from '../ports/bot-host.ts';
import type { Logger } from '../ports/logger.ts';
import type { VersionsRoom } from '../ports/versions.ts';

/**
 * Brings this node to the published version when it runs another (a publish on another node, a
 * signal it missed): one catch-up at a time, and one more after it when asked meanwhile.
 */
export function catchUp(
  deps: Pick<BotHost, 'live' | 'putInService'> & { readonly room: VersionsRoom; readonly logger: Logger },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const once = async () => {
    let published;
    try {
      published = await deps.room.published();
    } catch (error) {
      deps.logger.warn(
        { event: 'publish_check_failed', error: (error as Error).message },
        'could not read the published version; the next check tries again',
      );
      return;
    }
    if (!published || published.versionId === deps.live().version?.id) return;
    const version = await deps.room.getVersion(published.versionId).catch(() => null);
    if (!version) return;
    const outcome = await deps.putInService({ version, kind: 'cluster' });
    if (!outcome.ok)
      deps.logger.error(
        { event: 'publish_catch_up_failed', version: version.id },
        `version ${version.id} is published but could not be put in service on this node; the next check tries again`,
      );
  };
  const run = async (): Promise<void> => {
    try {
      do {
        again = false;
        await once();
      } while (again);
    } finally {
      running = undefined;
    }
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = run();
    return running;
  };
}
