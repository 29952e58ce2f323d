import type { BotMessage, Card } from '../../../shared/protocol.ts';
import { truncate, utf8Bytes } from './graphemes.ts';
import { vendorImageUrl } from './image-address.ts';
import { plainText } from './plain-text.ts';
import type { Capabilities, RenderedCard } from './rendered-parts.ts';
import { asButtons, blockOf, fitted, renderBlock, type Ladder } from './rungs.ts';

type CardSet = NonNullable<Capabilities['cards']>;

/**
 * A card within a card set's limits (its choices taken), or null when it does not fit one and goes on
 * its own: then a vendor refusing it (a button it cannot carry, say) does not take the other cards with it.
 */
function setCard(ladder: Ladder, set: CardSet, card: Card): RenderedCard | null {
  const imageUrl = ladder.caps.images && card.imageUrl ? card.imageUrl : undefined;
  const block = blockOf(ladder, plainText(card.title).replace(/\s+/g, ' '), card.buttons ?? [], [], imageUrl);
  const subtitle = truncate(plainText(card.subtitle ?? '').trim(), set.subtitleMax);
  const buttons = block.pending.length + block.nativeLinks.length;
  if (
    block.linkLines.length > 0 ||
    buttons > set.buttons ||
    !block.ids.every((id) => utf8Bytes(id) <= set.idMaxBytes) ||
    (!set.titleOnly && !imageUrl && !subtitle && buttons === 0)
  )
    return null;
  const rendered = asButtons(ladder, block, set.buttonTitleMax);
  return {
    title: fitted(block.body, set.titleMax),
    ...(subtitle ? { subtitle } : {}),
    ...(imageUrl ? { imageUrl } : {}),
    ...(imageUrl && card.imageAlt ? { imageAlt: card.imageAlt } : {}),
    ...(rendered.length > 0 ? { buttons: rendered } : {}),
  };
}

/** A card as a message of its own: an image with its caption (or a text) and its buttons, down the rungs. */
function cardOnItsOwn(ladder: Ladder, card: Card): void {
  const { caps } = ladder;
  const body = card.subtitle ? `${card.title}\n${card.subtitle}` : card.title;
  const image = caps.images && card.imageUrl && caps.captionMax > 0 ? card.imageUrl : undefined;
  if (card.imageUrl && !image) ladder.degraded = true;
  renderBlock(ladder, blockOf(ladder, plainText(body), card.buttons ?? [], [], image, card.imageAlt));
}

/** A carousel: its cards in card sets where the channel has them, each card that does not fit one on its own. */
export function renderCarousel(message: Extract<BotMessage, { type: 'carousel' }>, ladder: Ladder): void {
  const set = ladder.caps.cards;
  let run: RenderedCard[] = [];
  const close = () => {
    if (run.length > 0) ladder.parts.push({ kind: 'cards', cards: run });
    run = [];
  };
  for (const card of message.cards.map((given) => withVendorImage(ladder, given))) {
    const fitting = set && sizedCard(ladder, set, card, run);
    if (set && fitting) {
      // Past the message's size: the set so far goes, and this card starts the next.
      if (fitting.next) close();
      run.push(fitting.card);
      if (run.length === set.max) close();
      continue;
    }
    close();
    // On a channel with card sets, a card on its own is a lower form than its own.
    if (set) ladder.degraded = true;
    cardOnItsOwn(ladder, card);
  }
  close();
}

/**
 * The card within the set's limits and its size limit: in the current set, or starting the next one
 * (`next`); null when it fits no set, its choices given back so that it goes on its own numbered as before.
 */
function sizedCard(
  ladder: Ladder,
  set: CardSet,
  card: Card,
  run: readonly RenderedCard[],
): { readonly card: RenderedCard; readonly next: boolean } | null {
  const chosen = ladder.choices.length;
  const taken = [...ladder.taken];
  const fitting = setCard(ladder, set, card);
  if (!fitting || !set.fits || set.fits([...run, fitting])) return fitting && { card: fitting, next: false };
  if (set.fits([fitting])) return { card: fitting, next: run.length > 0 };
  ladder.choices.length = chosen;
  ladder.taken.clear();
  for (const title of taken) ladder.taken.add(title);
  return null;
}

/** The card with its image's address as a vendor fetches it; without its image (and degraded) when there is none. */
function withVendorImage(ladder: Ladder, card: Card): Card {
  if (card.imageUrl === undefined) return card;
  const imageUrl = vendorImageUrl(card.imageUrl, ladder.caps.publicUrl);
  if (imageUrl !== undefined) return { ...card, imageUrl };
  ladder.degraded = true;
  const { imageUrl: _, imageAlt: __, ...rest } = card;
  return rest;
}
