import type { Logger } from '../../ports/logger.ts';
import type { Store } from '../../ports/store.ts';
import { WHATSAPP } from './whatsapp-connector.ts';
import type { WhatsAppStatus } from './whatsapp-inbound.ts';

/**
 * Where WhatsApp's status callbacks go: every status to the log (`whatsapp_status`), and a failed
 * message, with Meta's code and reason, to the integration log as well, where the insights show it
 * beside the refusals the API gave at once.
 */
export function whatsAppStatusLog(
  store: Pick<Store, 'appendLog'>,
  logger: Logger,
  now: () => number,
): (status: WhatsAppStatus) => void {
  return (status) => {
    const userId = `${WHATSAPP}:${status.recipient}`;
    const fields = {
      event: 'whatsapp_status',
      channel: WHATSAPP,
      userId,
      messageId: status.messageId,
      status: status.status,
      ...(status.errorCode !== undefined ? { vendorCode: status.errorCode } : {}),
    };
    if (status.status !== 'failed') return void logger.info(fields, `WhatsApp: a message was ${status.status}`);
    logger.warn(
      fields,
      `WhatsApp could not deliver a message (${status.errorCode ?? 'no code'}: ${status.errorTitle ?? 'no reason given'})`,
    );
    store
      .appendLog('integrationLog', {
        userId,
        timestamp: now(),
        data: {
          url: `${WHATSAPP}:status`,
          method: 'POST',
          requestBody: '',
          requestHeaders: {},
          responseStatus: String(status.errorCode ?? 'failed'),
          responseBody: status.errorTitle ?? '',
          duration: 0,
        },
      })
      .catch((error: unknown) =>
        logger.error({ event: 'integration_log_failed', err: error }, 'could not write the integration log'),
      );
  };
}
