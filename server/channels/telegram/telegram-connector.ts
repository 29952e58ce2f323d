import { hash, timingSafeEqual } from 'node:crypto';
import { HttpError } from '../../ports/http-error.ts';
import type { WebhookRequest } from '../../ports/webhook-request.ts';
import type { Connector, InboundMessage } from '../connector/connector.ts';
import { textOrImage, type Capabilities, type RenderedButton } from '../connector/ladder.ts';
import type { TelegramCall } from './telegram-api.ts';

/** The channel's name: the users' channelId and the webhook's path (/api/webhooks/telegram). */
export const TELEGRAM = 'telegram';
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * The Bot API's limits (its reference: text 1-4096 characters, caption 0-1024, callback_data
 * 1-64 bytes). Buttons stand one a row, so more than eight would fill a phone's screen; past
 * that the ladder numbers them.
 */
export const TELEGRAM_CAPABILITIES: Capabilities = {
  textMax: 4096,
  captionMax: 1024,
  buttons: { max: 8, titleMax: 64, idMaxBytes: 64, url: true },
  list: null,
  quickReplies: { max: 12, titleMax: 64 },
  images: true,
};

const digest = (value: string) => hash('sha256', value, 'buffer');

interface TelegramUser {
  id?: number;
  username?: string;
  first_name?: string;
  last_name?: string;
  language_code?: string;
}
interface TelegramUpdate {
  update_id?: number;
  message?: { chat?: { id?: number }; from?: TelegramUser; text?: string; caption?: string };
  callback_query?: { id?: string; from?: TelegramUser; data?: string; message?: { chat?: { id?: number } } };
}

/**
 * Telegram's Bot API as a connector: updates arrive at the webhook with the secret token setWebhook
 * was given (compared in constant time); text and /start come in as messages, a pressed inline
 * button as its choice (answered with answerCallbackQuery). Out go texts, photos, inline keyboards
 * for buttons and a one-time reply keyboard for quick replies.
 */
export function telegramConnector(options: {
  readonly call: TelegramCall;
  readonly secret: string;
  readonly token: string;
}): Connector {
  const expected = digest(options.secret);
  return {
    name: TELEGRAM,
    capabilities: TELEGRAM_CAPABILITIES,
    // An update with a long text and its entities is a few KB; far more is not Telegram.
    maxBodyBytes: 256 * 1024,
    secrets: [options.token, options.secret],
    bodyFormat: 'json',
    verify(request: WebhookRequest) {
      const sent = request.headers[SECRET_HEADER];
      if (typeof sent !== 'string' || sent === '')
        throw new HttpError(
          401,
          'unauthorized',
          'The X-Telegram-Bot-Api-Secret-Token header is missing: Telegram sends it when setWebhook was given a secret_token (npx chatbot telegram set-webhook).',
        );
      // Hashed first: the comparison takes the same time whatever the length sent.
      if (!timingSafeEqual(digest(sent), expected))
        throw new HttpError(
          403,
          'forbidden',
          'The X-Telegram-Bot-Api-Secret-Token header does not match TELEGRAM_WEBHOOK_SECRET.',
        );
    },
    parse(body) {
      const update = (typeof body === 'object' && body !== null ? body : {}) as TelegramUpdate;
      if (!Number.isSafeInteger(update.update_id))
        throw new HttpError(400, 'invalid_body', 'A Telegram update needs an update_id.');
      return toInbound(update);
    },
    async acknowledge(message) {
      const id = message.ack?.callbackQueryId;
      if (id) await options.call('answerCallbackQuery', { callback_query_id: id });
    },
    async send(address, rendered) {
      const part = textOrImage(rendered);
      const chatId = /^-?\d{1,16}$/.test(address) ? Number(address) : address;
      if (part.kind === 'image') {
        await options.call('sendPhoto', {
          chat_id: chatId,
          photo: part.url,
          ...(part.caption ? { caption: part.caption } : {}),
          ...markup(part.buttons),
        });
        return;
      }
      await options.call('sendMessage', {
        chat_id: chatId,
        text: part.text,
        ...markup(part.buttons ?? part.list?.rows, part.quickReplies),
      });
    },
  };
}

/** Buttons as an inline keyboard (one a row), quick replies as a one-time reply keyboard. */
function markup(
  buttons?: readonly RenderedButton[],
  quickReplies?: readonly string[],
): { reply_markup?: Record<string, unknown> } {
  if (buttons && buttons.length > 0) {
    return {
      reply_markup: {
        inline_keyboard: buttons.map((b) => [
          b.kind === 'url' ? { text: b.title, url: b.url } : { text: b.title, callback_data: b.id },
        ]),
      },
    };
  }
  if (quickReplies && quickReplies.length > 0) {
    return {
      reply_markup: {
        keyboard: quickReplies.map((text) => [{ text }]),
        one_time_keyboard: true,
        resize_keyboard: true,
      },
    };
  }
  return {};
}

/** What Telegram tells about the user: declared user-data fields of these names become user data. */
function known(user: TelegramUser | undefined): Record<string, string> {
  const data: Record<string, string> = {};
  if (user?.username) data.telegramUsername = user.username;
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  if (name) data.telegramName = name;
  if (user?.language_code) data.telegramLanguage = user.language_code;
  return data;
}

function toInbound(update: TelegramUpdate): InboundMessage[] {
  const eventId = String(update.update_id);
  const callback = update.callback_query;
  if (callback) {
    const chat = callback.message?.chat?.id ?? callback.from?.id;
    if (chat === undefined || !callback.id || !callback.data) return [];
    return [
      {
        eventId,
        address: String(chat),
        input: { kind: 'choice', choiceId: callback.data },
        userData: known(callback.from),
        ack: { callbackQueryId: callback.id },
      },
    ];
  }
  const message = update.message;
  const chat = message?.chat?.id;
  const text = message?.text ?? message?.caption;
  // Stickers, voice, edits, joins: nothing the bot can answer (yet).
  if (chat === undefined || text === undefined || text.trim() === '') return [];
  const input = /^\/start(@\w+)?(\s|$)/.test(text) ? ({ kind: 'open' } as const) : ({ kind: 'text', text } as const);
  return [{ eventId, address: String(chat), input, userData: known(message?.from) }];
}

/** The webhook URL Telegram is told to post to. */
export const telegramWebhookUrl = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/api/webhooks/${TELEGRAM}`;

/** setWebhook with the secret token (Telegram then sends it with every update), for the CLI. */
export async function setTelegramWebhook(call: TelegramCall, publicUrl: string, secret: string): Promise<string> {
  const url = telegramWebhookUrl(publicUrl);
  await call('setWebhook', { url, secret_token: secret, allowed_updates: ['message', 'callback_query'] });
  return url;
}
