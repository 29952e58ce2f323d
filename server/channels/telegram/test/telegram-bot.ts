import { channelTestBot } from '../../connector/test/channel-test-bot.ts';

/** The bot the Telegram tests talk to: a greeting naming the user, a choice (quick replies), a button, an echo loop, a trigger dialog. */
export const telegramBot = () =>
  channelTestBot({ id: 'telegram-bot', greeting: 'Hello {{telegramUsername}}.', userDataFields: ['telegramUsername'] });
