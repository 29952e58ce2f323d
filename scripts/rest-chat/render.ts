import type { BotMessage, TranscriptItem } from '../../shared/protocol.ts';

/** A numbered choice the author can pick by typing its number. */
export type Choice =
  | { readonly label: string; readonly send: { readonly type: 'button'; readonly label: string; readonly payload: string } }
  | { readonly label: string; readonly send: { readonly type: 'dialog'; readonly label: string; readonly dialogId: string } }
  | { readonly label: string; readonly url: string };

/** The bot's messages as terminal lines, and the buttons and quick replies of the latest, numbered from 1. */
export function render(items: readonly TranscriptItem[]): { lines: string[]; choices: Choice[] } {
  const lines: string[] = [];
  let choices: Choice[] = [];
  for (const item of items) {
    if (item.from !== 'bot') continue;
    // The channel's event messages (bot → page events) are not the widget's: shown by name.
    const event = item.message as unknown as { type: string; name?: unknown };
    if (event.type === 'event') {
      lines.push(`(event ${String(event.name)})`);
      continue;
    }
    const message = item.message as BotMessage;
    const found: Choice[] = [];
    switch (message.type) {
      case 'text':
        lines.push(`bot: ${message.text}`);
        for (const button of message.buttons ?? []) found.push(toChoice(button));
        for (const reply of message.quickReplies ?? []) found.push({ label: reply.label, send: { type: 'button', label: reply.label, payload: reply.payload } });
        break;
      case 'image':
        lines.push(`bot: [image ${message.alt}] ${message.url}`);
        break;
      case 'carousel':
        for (const card of message.cards) {
          lines.push(`bot: ▸ ${card.title}${card.subtitle ? ` (${card.subtitle})` : ''}`);
          for (const button of card.buttons ?? []) found.push(toChoice(button));
        }
        break;
      case 'notice':
        lines.push(`bot (${message.level}): ${message.text}`);
        break;
    }
    // Only the latest message's buttons can still be answered in a conversation.
    if (found.length > 0) choices = found;
  }
  choices.forEach((choice, index) => lines.push(`  [${index + 1}] ${choice.label}${'url' in choice ? ` → ${choice.url}` : ''}`));
  return { lines, choices };
}

function toChoice(button: NonNullable<Extract<BotMessage, { type: 'text' }>['buttons']>[number]): Choice {
  switch (button.kind) {
    case 'postback':
      return { label: button.label, send: { type: 'button', label: button.label, payload: button.payload } };
    case 'dialog':
      return { label: button.label, send: { type: 'dialog', label: button.label, dialogId: button.dialogId } };
    case 'url':
      return { label: button.label, url: button.url };
  }
}
