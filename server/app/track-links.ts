import type { BotMessage, Button } from '../../shared/protocol.ts';
import type { AppDeps } from './deps.ts';

/** Swaps every URL button's target for its tracked link (`{base}/r/{token}`), so clicks land in the URL tracker. */
export function trackLinks(deps: AppDeps, userId: string, outputs: readonly BotMessage[]): readonly BotMessage[] {
  const links = deps.links;
  // Most turns say no button at all: nothing to build for them.
  if (!links || !outputs.some(hasButtons)) return outputs;
  const track = (buttons: readonly Button[] | undefined) =>
    buttons?.map((b) => (b.kind === 'url' ? { ...b, url: links.link(userId, b.url) } : b));
  return outputs.map((message) => {
    if (message.type === 'text' && message.buttons) return { ...message, buttons: track(message.buttons) };
    if (message.type === 'carousel') {
      return {
        ...message,
        cards: message.cards.map((card) => (card.buttons ? { ...card, buttons: track(card.buttons) } : card)),
      };
    }
    return message;
  });
}

function hasButtons(message: BotMessage): boolean {
  return (message.type === 'text' && message.buttons !== undefined) || message.type === 'carousel';
}
