/**
 * The message tags a bot may send outside Messenger's 24-hour window (Meta's "Message Tags" page,
 * https://developers.facebook.com/docs/messenger-platform/send-messages/message-tags): a confirmed
 * event's update, a purchase's update, a change to the person's account. `HUMAN_AGENT` (7 days) is
 * for a person answering by hand and is never a bot's; the other tags were retired by Meta.
 */
export const MESSENGER_BOT_TAGS = ['CONFIRMED_EVENT_UPDATE', 'POST_PURCHASE_UPDATE', 'ACCOUNT_UPDATE'] as const;

export type MessengerBotTag = (typeof MESSENGER_BOT_TAGS)[number];
