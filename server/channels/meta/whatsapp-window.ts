import type { WhatsAppTemplate } from '../../definition/whatsapp-template.ts';
import { HttpError } from '../../ports/http-error.ts';
import { SendFailure, type Connector } from '../connector/connector.ts';
import { fillTemplate, insideWindow, WHATSAPP_WINDOW_MS, type FilledTemplate } from './whatsapp-template.ts';

/** How one way to WhatsApp (Meta's Cloud API, Twilio) keeps the customer service window. */
export interface WhatsAppWindowOptions {
  /** The channel's name, for the trigger's refusal. */
  readonly channel: string;
  /** The vendor's code for a message outside the window (Meta 131047, Twilio 63016), and its endpoint, for the log. */
  readonly vendorCode: string;
  readonly endpoint: string;
  /** What the vendor does with another message outside the window, said in the trigger's refusal. */
  readonly refusal: string;
  /** A dialog's template this way can send (Twilio's needs a Content SID); undefined: none. */
  readonly template: (dialogId: string) => WhatsAppTemplate | undefined;
  /** What the template is called in the log and in a refusal ("order_shipped", a Content SID). */
  readonly templateName: (template: WhatsAppTemplate) => string;
  readonly sendTemplate: (address: string, template: FilledTemplate) => Promise<unknown>;
}

/**
 * WhatsApp's customer service window as a connector's hooks: a trigger outside it is admitted only for
 * a dialog with a template (else 409 naming the rule); the first message of a turn outside it goes as
 * its dialog's template and the rest of that turn is covered by it; any other message outside it is
 * given up before the vendor is called.
 */
export function whatsAppWindow(
  options: WhatsAppWindowOptions,
): Required<Pick<Connector, 'admitTrigger' | 'refuseSend' | 'replaceSend'>> {
  const lastWrote = (last: number) => `the user last wrote at ${new Date(last).toISOString()}`;
  return {
    admitTrigger(user, dialogId, now) {
      const last = user?.lastMessageAt ?? null;
      if (insideWindow(last, now) || options.template(dialogId)) return;
      throw new HttpError(
        409,
        'whatsapp_window_closed',
        `WhatsApp delivers messages a user did not ask for only within 24 hours of their last message (the customer service window), and ${last === null ? 'this user has never written' : lastWrote(last).replace('the user', 'this user')}. Outside it only an approved message template may start the conversation (${options.refusal}), and dialog "${dialogId}" names none this channel can send (its whatsappTemplate, docs/channels.md): it was not started.`,
        { channel: options.channel, lastMessageAt: last === null ? null : new Date(last).toISOString() },
      );
    },
    refuseSend(user, now) {
      // Unknown (null) is not "closed": a new user's greeting may be sent before the turn of their first message has stored its time.
      const last = user?.lastMessageAt ?? null;
      if (last === null || now - last < WHATSAPP_WINDOW_MS) return undefined;
      return new SendFailure(
        'permanent',
        options.vendorCode,
        `not sent: outside WhatsApp's 24-hour window (${lastWrote(last)}); only an approved template may be sent then`,
        undefined,
        options.endpoint,
      );
    },
    replaceSend(user, now, message) {
      // A user who never wrote (null) is outside: only a trigger or a timer reaches them, and the dialog names its template for that.
      const template = message.dialogId === undefined ? undefined : options.template(message.dialogId);
      if (!template || insideWindow(user?.lastMessageAt ?? null, now)) return undefined;
      if (!message.opensTurn)
        return {
          kind: 'covered',
          why: `not sent: outside WhatsApp's 24-hour window the template ${options.templateName(template)} sent for this turn stands for the dialog's messages until the user answers`,
        };
      const filled = fillTemplate(template, user);
      return { kind: 'instead', send: async (address) => void (await options.sendTemplate(address, filled)) };
    },
  };
}
