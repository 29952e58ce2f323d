import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import type { CarrierKeyword } from './opt-out-keywords.ts';
import type { TwilioStatus } from './twilio-connector.ts';

/** Statuses that end a message's life without reaching the user. */
const FAILED = new Set(['failed', 'undelivered']);

/**
 * Where Twilio's status callbacks go: every status to the log (`twilio_status`), and a message that
 * failed or went undelivered, with Twilio's error code, to the integration log as well.
 */
export function twilioStatusLog(store: Pick<Store, 'appendLog'>, logger: Logger, now: () => number): (channel: string, status: TwilioStatus) => void {
  return (channel, status) => {
    const address = status.to.replace(/^whatsapp:/, '');
    const userId = `${channel}:${address}`;
    const fields = { event: 'twilio_status', channel, userId, messageSid: status.messageSid, status: status.status, ...(status.errorCode ? { vendorCode: status.errorCode } : {}) };
    if (!FAILED.has(status.status)) return void logger.info(fields, `Twilio: a message is ${status.status}`);
    logger.warn(fields, `Twilio could not deliver a message (${status.errorCode ?? 'no code'})`);
    store
      .appendLog('integrationLog', {
        userId,
        timestamp: now(),
        data: { url: `${channel}:status`, method: 'POST', requestBody: '', requestHeaders: {}, responseStatus: status.errorCode ?? status.status, responseBody: `https://www.twilio.com/docs/errors/${status.errorCode ?? ''}`, duration: 0 },
      })
      .catch((error: unknown) => logger.error({ event: 'integration_log_failed', err: error }, 'could not write the integration log'));
  };
}

/** A carrier keyword an SMS user sent: Twilio answers it; the log keeps it. */
export function twilioKeywordLog(logger: Logger): (channel: string, address: string, keyword: CarrierKeyword) => void {
  return (channel, address, keyword) => logger.info({ event: 'sms_keyword', channel, address, keyword }, `an SMS user sent a carrier keyword (${keyword}); Twilio answers it and the bot runs no dialog`);
}
