import type { Logger } from '../../ports/logger.ts';
import type { RestChannel } from '../../settings/rest-channels.ts';

/** Why the outbound client would refuse a URL (its destination rules), or undefined when it would call it. */
export type RefusalCheck = (url: string) => Promise<{ readonly message: string } | undefined>;

/**
 * At start-up: a channel whose callbackUrl the SSRF rules will refuse (a private or loopback
 * address, or a host missing from INTEGRATION_ALLOWED_HOSTS) gets a warning naming the channel
 * and the settings to change, rather than callbacks that fail one by one later. Resolves once
 * every channel is checked; never rejects.
 */
export async function warnRefusedCallbacks(
  channels: readonly RestChannel[],
  refusal: RefusalCheck,
  logger: Logger,
): Promise<void> {
  await Promise.all(
    channels.map(async (channel) => {
      if (!channel.callbackUrl) return;
      const refused = await refusal(channel.callbackUrl).catch(() => undefined);
      if (!refused) return;
      // The host only: a URL may carry credentials.
      const host = new URL(channel.callbackUrl).host;
      logger.warn(
        {
          event: 'callback_url_refused',
          channel: channel.name,
          host,
          settings: ['REST_CHANNELS', 'INTEGRATION_ALLOWED_HOSTS'],
        },
        `REST channel "${channel.name}": its callbackUrl (host ${host}) will be refused: ${refused.message} Its callbacks will fail at once (logged as callback_refused) and the channel must read what it missed with GET …/messages. Change the channel's callbackUrl in REST_CHANNELS, or list ${new URL(channel.callbackUrl).hostname} in INTEGRATION_ALLOWED_HOSTS.`,
      );
    }),
  );
}
