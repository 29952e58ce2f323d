import { dayOf } from '../../../../ports/insights.ts';
import type { TestServer } from '../../../../test/start-test-server.ts';
import { startWhatsAppCloudStandIn, type WhatsAppCloudStandIn } from './whatsapp-cloud-stand-in.ts';
import { incomingMessage, newWhatsAppMessageId, postWhatsAppWebhook } from './whatsapp-webhooks.ts';

const accessToken = 'EAAwhatsapp-test-access-token-0123456789';
const appSecret = 'whatsapp-app-secret-0123456789abcdef';
const number = { wabaId: '419561257915477', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };

/** The code a link-channels step shows ("… type ABCD-EFGH there …"), its code captured. */
export const LINK_CODE = /type ([A-Z2-9]{4}-[A-Z2-9]{4}) there/;

/** The WhatsApp Cloud stand-in the linking tests talk to. */
export function startWhatsApp(): Promise<WhatsAppCloudStandIn> {
  return startWhatsAppCloudStandIn({ accessToken, phoneNumberId: number.phoneNumberId });
}

/** The settings that put the bot on the stand-in's WhatsApp number. */
export function whatsAppEnv(standIn: WhatsAppCloudStandIn): Record<string, string> {
  return {
    WHATSAPP_ACCESS_TOKEN: accessToken,
    WHATSAPP_PHONE_NUMBER_ID: number.phoneNumberId,
    WHATSAPP_APP_SECRET: appSecret,
    WHATSAPP_VERIFY_TOKEN: 'whatsapp-verify-token-0123456789',
    WHATSAPP_API_URL: standIn.graphUrl,
  };
}

/**
 * WhatsApp users of a running server: what the bot sent each (the texts the stand-in accepted) and a
 * signed webhook for what they write. `serverUrl` is read at each call (the server starts after).
 */
export function whatsAppUsers(standIn: () => WhatsAppCloudStandIn, serverUrl: () => string, name = 'Ada') {
  return {
    texts: (waId: string) =>
      standIn()
        .accepted()
        .filter((message) => message.to === waId)
        .map((message) => (message.body as { text?: { body: string } }).text?.body ?? ''),
    say: (waId: string, text: string) =>
      postWhatsAppWebhook(
        `${serverUrl()}/api/webhooks/whatsapp`,
        incomingMessage(number, { waId, name }, { type: 'text', text: { body: text } }, { id: newWhatsAppMessageId() }),
        appSecret,
      ),
  };
}

/** Active users today, as the insights store holds them once the recorder has written. */
export async function activeToday(server: TestServer): Promise<number> {
  await server.insights.recorder!.flush();
  const today = dayOf(Date.now());
  const { daily } = await server.insights.store.counters({ fromDay: today, toDay: today }, ['activeUsers']);
  return daily.get(today)?.get('activeUsers') ?? 0;
}

/** The users' messages today per channel (channel → count), as the insights store holds them once the recorder has written. */
export async function userMessagesToday(server: TestServer): Promise<Record<string, number>> {
  await server.insights.recorder!.flush();
  const today = dayOf(Date.now());
  const { channels } = await server.insights.store.counters({ fromDay: today, toDay: today }, ['messagesUser']);
  return Object.fromEntries([...channels].map(([channel, totals]) => [channel, totals.get('messagesUser') ?? 0]));
}
