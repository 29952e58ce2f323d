import type { BotMessage, TranscriptItem } from '../../shared/protocol.ts';

/** A numbered choice the author can pick by typing its number. */
export type Choice =
  | {
      readonly label: string;
      readonly send: { readonly type: 'button'; readonly label: string; readonly payload: string };
    }
  | {
      readonly label: string;
      readonly send: { readonly type: 'dialog'; readonly label: string; readonly dialogId: string };
    }
  | { readonly label: string; readonly url: string };

type Button = NonNullable<Extract<BotMessage, { type: 'text' }>['buttons']>[number];

/**
 * The bot's messages as terminal lines. Each message's buttons are listed right under it, as
 * the widget shows them, numbered from 1 across the batch; quick replies only under the latest
 * message (the widget drops them once another message comes). `choices` are what the numbers
 * press, or undefined when the batch holds no message of the bot's (only events): the earlier
 * numbers then stay as they were.
 */
export function render(items: readonly TranscriptItem[]): { lines: string[]; choices: Choice[] | undefined } {
  const lines: string[] = [];
  const choices: Choice[] = [];
  const list = (choice: Choice) => {
    choices.push(choice);
    lines.push(`  [${choices.length}] ${choice.label}${'url' in choice ? ` → ${choice.url}` : ''}`);
  };
  // The channel's event messages (bot → page events) are not the widget's: shown by name, never the latest message.
  const isEvent = (item: TranscriptItem) => (item.message as unknown as { type: string }).type === 'event';
  const spoken = items.filter((item) => item.from === 'bot' && !isEvent(item));
  const latest = spoken.at(-1);
  for (const item of items) {
    if (item.from !== 'bot') continue;
    if (isEvent(item)) {
      lines.push(`(event ${String((item.message as unknown as { name?: unknown }).name)})`);
      continue;
    }
    const message = item.message as BotMessage;
    switch (message.type) {
      case 'text':
        lines.push(`bot: ${message.text}`);
        for (const button of message.buttons ?? []) list(toChoice(button));
        if (item === latest)
          for (const reply of message.quickReplies ?? [])
            list({ label: reply.label, send: { type: 'button', label: reply.label, payload: reply.payload } });
        break;
      case 'image':
        lines.push(`bot: [image ${message.alt}] ${message.url}`);
        break;
      case 'carousel':
        for (const card of message.cards) {
          lines.push(`bot: ▸ ${card.title}${card.subtitle ? ` (${card.subtitle})` : ''}`);
          for (const button of card.buttons ?? []) list(toChoice(button));
        }
        break;
      case 'notice':
        lines.push(`bot (${message.level}): ${message.text}`);
        break;
    }
  }
  return { lines, choices: latest === undefined ? undefined : choices };
}

function toChoice(button: Button): Choice {
  switch (button.kind) {
    case 'postback':
      return { label: button.label, send: { type: 'button', label: button.label, payload: button.payload } };
    case 'dialog':
      return { label: button.label, send: { type: 'dialog', label: button.label, dialogId: button.dialogId } };
    case 'url':
      return { label: button.label, url: button.url };
  }
}
