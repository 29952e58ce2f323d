import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import type { CarrierKeyword } from './opt-out-keywords.ts';
import { updateUserWithRetry } from '../../app/update-user.ts';
import { channelUserId } from '../connector/connector.ts';
import { SMS_OPTED_OUT, type TwilioStatus } from './twilio-connector.ts';

/** Statuses that end a message's life without reaching the user. */
const FAILED = new Set(['failed', 'undelivered']);

/**
 * Where Twilio's status callbacks go: every status to the log (`twilio_status`), and a message that
 * failed or went undelivered, with Twilio's error code, to the integration log as well.
 */
export function twilioStatusLog(
  store: Pick<Store, 'appendLog'>,
  logger: Logger,
  now: () => number,
): (channel: string, status: TwilioStatus) => void {
  return (channel, status) => {
    const address = status.to.replace(/^whatsapp:/, '');
    const userId = `${channel}:${address}`;
    const fields = {
      event: 'twilio_status',
      channel,
      userId,
      messageSid: status.messageSid,
      status: status.status,
      ...(status.errorCode ? { vendorCode: status.errorCode } : {}),
    };
    if (!FAILED.has(status.status)) return void logger.info(fields, `Twilio: a message is ${status.status}`);
    logger.warn(fields, `Twilio could not deliver a message (${status.errorCode ?? 'no code'})`);
    store
      .appendLog('integrationLog', {
        userId,
        timestamp: now(),
        data: {
          url: `${channel}:status`,
          method: 'POST',
          requestBody: '',
          requestHeaders: {},
          responseStatus: status.errorCode ?? status.status,
          responseBody: `https://www.twilio.com/docs/errors/${status.errorCode ?? ''}`,
          duration: 0,
        },
      })
      .catch((error: unknown) =>
        logger.error({ event: 'integration_log_failed', err: error }, 'could not write the integration log'),
      );
  };
}

/**
 * A carrier keyword an SMS user sent: Twilio answers it; the log keeps it, and STOP and START set the
 * user's opt-out (the variable SMS_OPTED_OUT), which refuses triggers to them until they opt in again.
 */
export function twilioKeywordLog(
  store: Store,
  logger: Logger,
  now: () => number,
): (channel: string, address: string, keyword: CarrierKeyword) => Promise<void> {
  return async (channel, address, keyword) => {
    const userId = channelUserId(channel, address);
    logger.info(
      { event: 'sms_keyword', channel, userId, keyword },
      `an SMS user sent a carrier keyword (${keyword}); Twilio answers it and the bot runs no dialog`,
    );
    if (keyword === 'help') return;
    const at = now();
    await store.ensureUser({ userId, channelId: channel, now: at });
    await updateUserWithRetry(store, userId, at, (user) => ({
      variables: { ...user.variables, [SMS_OPTED_OUT]: keyword === 'opt-out' },
    }));
  };
}
