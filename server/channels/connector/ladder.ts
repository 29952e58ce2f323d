import type { BotMessage } from '../../../shared/protocol.ts';
import { renderCarousel } from './card-sets.ts';
import { vendorImageUrl } from './image-address.ts';
import { plainText } from './plain-text.ts';
import type { Capabilities, Rendered } from './rendered-parts.ts';
import { blockOf, fitted, renderBlock, type Ladder } from './rungs.ts';

// The ladder's public face: what connectors and the connector core import from it.
export { choiceByAnswer } from './choice-by-answer.ts';
export { plainText } from './plain-text.ts';
export {
  choiceId,
  textOrImage,
  type Capabilities,
  type Choice,
  type Rendered,
  type RenderedButton,
  type RenderedCard,
  type RenderedPart,
  type TextOrImagePart,
} from './rendered-parts.ts';

/**
 * The rendering ladder: one bot message → the channel's native form, else the next native form,
 * else numbered text the user answers by number or label. Never an invalid payload: every text is
 * cut by grapheme within the limit, titles are unique, ids within the byte limit.
 *
 * | kind | rungs |
 * |---|---|
 * | text + buttons | reply buttons (≤ buttons.max, links among them when buttons.url) → list (≤ list.max) → numbered text |
 * | quick replies | quick replies (≤ quickReplies.max) → reply buttons → list → numbered text |
 * | buttons and quick replies | all as choices: reply buttons → list → numbered text |
 * | image | image (a path put on `publicUrl`) → "alt: address" (a path with no `publicUrl`: the alt) |
 * | carousel | card sets (≤ cards.max cards each and within cards.fits, the following ones in the next) → a card that does not fit one (too many buttons, a link the channel cannot carry, its title alone): on its own; an image whose address cannot be made absolute is left out → per card: image with caption (or text) and its buttons as above; numbers run on across cards |
 * | notice | text |
 * | link buttons | link buttons (https only) → "title: address" lines |
 */
export function renderMessage(message: BotMessage, caps: Capabilities, seq: number): Rendered {
  const ladder: Ladder = { caps, seq, parts: [], choices: [], taken: new Set(), degraded: false };
  renderKind(message, ladder);
  return { parts: ladder.parts, choices: ladder.choices, degraded: ladder.degraded };
}

/** Each kind of bot message, put on the ladder. */
const MESSAGE_KINDS: {
  readonly [K in BotMessage['type']]: (message: Extract<BotMessage, { type: K }>, ladder: Ladder) => void;
} = {
  text: (message, ladder) =>
    renderBlock(
      ladder,
      blockOf(
        ladder,
        plainText(message.text),
        message.buttons ?? [],
        (message.quickReplies ?? []).map((q) => ({
          label: q.label,
          message: { type: 'postback', label: q.label, payload: q.payload },
        })),
      ),
    ),
  notice: (message, ladder) => {
    ladder.parts.push({ kind: 'text', text: fitted(message.text, ladder.caps.textMax) });
  },
  image: (message, ladder) => {
    const url = vendorImageUrl(message.url, ladder.caps.publicUrl);
    if (ladder.caps.images && url !== undefined)
      ladder.parts.push({ kind: 'image', url, ...(message.alt ? { alt: message.alt } : {}) });
    else {
      ladder.degraded = true;
      // A path no one outside this server can open: what the image shows is all the line can say.
      const line = url === undefined ? message.alt || message.url : message.alt ? `${message.alt}: ${url}` : url;
      ladder.parts.push({ kind: 'text', text: fitted(line, ladder.caps.textMax) });
    }
  },
  carousel: renderCarousel,
};

function renderKind<M extends BotMessage>(message: M, ladder: Ladder): void {
  (MESSAGE_KINDS[message.type] as (message: M, ladder: Ladder) => void)(message, ladder);
}
