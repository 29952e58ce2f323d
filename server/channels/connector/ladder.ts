import type { BotMessage, Button, Card, UserMessage } from '../../../shared/protocol.ts';
import { truncate, uniqueTitles, utf8Bytes } from './graphemes.ts';

/**
 * What a channel shows natively. Lengths count UTF-16 code units, as the vendors do; a form
 * set to null is not there, and the ladder takes the next one down.
 */
export interface Capabilities {
  /** Longest text of one message. */
  readonly textMax: number;
  /** Longest caption under an image (0: an image carries no caption). */
  readonly captionMax: number;
  /** Reply buttons under a message (`url`: link buttons among them too). */
  readonly buttons: {
    readonly max: number;
    readonly titleMax: number;
    readonly idMaxBytes: number;
    readonly url: boolean;
  } | null;
  /** A list to pick one row from (WhatsApp's list message): the next native form when there are more choices than buttons. */
  readonly list: {
    readonly max: number;
    readonly titleMax: number;
    readonly idMaxBytes: number;
    readonly buttonTitle: string;
  } | null;
  /** One-tap answers that send their title as text (Telegram's one-time reply keyboard). */
  readonly quickReplies: { readonly max: number; readonly titleMax: number } | null;
  /** Images sent as images (else as a line with their address). */
  readonly images: boolean;
  /**
   * Several cards side by side in one message (Messenger's generic template): a carousel's own form.
   * Absent: each card goes as a message of its own, down the rungs above.
   */
  readonly cards?: {
    /** Cards in one message; the following ones go on in the next. */
    readonly max: number;
    readonly titleMax: number;
    readonly subtitleMax: number;
    /** Buttons on one card (choices, and links where `buttons.url`); a card with more goes on its own. */
    readonly buttons: number;
    readonly buttonTitleMax: number;
    readonly idMaxBytes: number;
    /** Whether a card may hold its title alone (Messenger's may not: a subtitle, an image or a button too). */
    readonly titleOnly: boolean;
  };
}

/** A button as rendered: a choice (answered by its id) or a link. */
export type RenderedButton =
  | { readonly kind: 'choice'; readonly title: string; readonly id: string }
  | { readonly kind: 'url'; readonly title: string; readonly url: string };

/** One vendor message the connector sends, already within the channel's limits. */
export type RenderedPart =
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly buttons?: readonly RenderedButton[];
      readonly list?: { readonly button: string; readonly rows: readonly RenderedButton[] };
      readonly quickReplies?: readonly string[];
    }
  | {
      readonly kind: 'image';
      readonly url: string;
      /** What the image shows, for channels that give screen readers an alternative text (Slack's alt_text). */
      readonly alt?: string;
      readonly caption?: string;
      readonly buttons?: readonly RenderedButton[];
    }
  /** A card set: several cards side by side in one message (only for a channel with `cards`). */
  | { readonly kind: 'cards'; readonly cards: readonly RenderedCard[] };

/** A card of a card set, within its limits; its buttons' numbers run on with the message's other choices. */
export interface RenderedCard extends Omit<Card, 'buttons'> {
  readonly buttons?: readonly RenderedButton[];
}

/** A text or an image part: all a channel without card sets (no `cards` in its capabilities) is given. */
export type TextOrImagePart = Exclude<RenderedPart, { readonly kind: 'cards' }>;

/** The part, for a connector whose capabilities have no `cards`: the ladder gives it no card set. */
export function textOrImage(part: RenderedPart): TextOrImagePart {
  if (part.kind === 'cards') throw new Error('a card set for a channel whose capabilities have no `cards`');
  return part;
}

/** A choice the user can make: by a native button (its id), by number, or by typing its title. */
export interface Choice {
  /** `{seq}.{index}`: what a native button carries back (a few bytes, within every vendor's limit). */
  readonly id: string;
  /** 1, 2, 3 … across the message: what a numbered list shows. */
  readonly number: number;
  /** The title as shown (cut and unique), and the label the bot gave it. */
  readonly title: string;
  readonly label: string;
  /** What choosing it sends as the user's message. */
  readonly message: UserMessage;
}

export interface Rendered {
  readonly parts: readonly RenderedPart[];
  readonly choices: readonly Choice[];
  /** A native form did not fit and a lower rung was taken (logged as `channel_degraded`). */
  readonly degraded: boolean;
}

/** Longest title in a numbered list: long enough to read, short enough that many fit one message. */
const NUMBERED_TITLE_MAX = 80;

/** The id a native button carries: the bot message's seq and the choice's place in it. */
export const choiceId = (seq: number, index: number) => `${seq}.${index}`;

/** The markup subset of bot texts (**bold**, *italic*, `code`, [label](url), \\-escapes) as plain text every channel shows. */
export function plainText(markup: string): string {
  // Escaped characters (a template's value, such as a username with "_") stand aside while the markup goes.
  const escaped: string[] = [];
  const held = markup.replace(
    /\\([\\`*_{}[\]()#+\-.!|>~<])/g,
    (_, char: string) => `\u{F0000}${escaped.push(char) - 1}\u{F0001}`,
  );
  return held
    .replace(/\[([^\]]*)\]\(([^)\s]+)\)/g, (_, label: string, url: string) =>
      label && label !== url ? `${label} (${url})` : url,
    )
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\u{F0000}(\d+)\u{F0001}/gu, (_, index: string) => escaped[Number(index)] ?? '');
}

/** An address a vendor will open from a button: https only, not a loopback or private host name. */
function linkable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !/^(localhost|127\.|\[::1\]|10\.|192\.168\.)/.test(parsed.hostname);
  } catch {
    return false;
  }
}

interface Pending {
  readonly label: string;
  readonly message: UserMessage;
}

const asChoice = (button: Button): Pending | null =>
  button.kind === 'postback'
    ? { label: button.label, message: { type: 'postback', label: button.label, payload: button.payload } }
    : button.kind === 'dialog'
      ? { label: button.label, message: { type: 'dialog', label: button.label, dialogId: button.dialogId } }
      : null;

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
 * | image | image → "alt: address" |
 * | carousel | card sets (≤ cards.max cards each, the following ones in the next) → a card that does not fit one (too many buttons, a link the channel cannot carry, its title alone, an image without an http(s) address): on its own → per card: image with caption (or text) and its buttons as above; numbers run on across cards |
 * | notice | text |
 * | link buttons | link buttons (https only) → "title: address" lines |
 */
export function renderMessage(message: BotMessage, caps: Capabilities, seq: number): Rendered {
  const ladder: Ladder = { caps, seq, parts: [], choices: [], taken: new Set(), degraded: false };
  renderKind(message, ladder);
  return { parts: ladder.parts, choices: ladder.choices, degraded: ladder.degraded };
}

/** One message's rendering as it goes: its parts, its numbered choices, whether it fell down a rung. */
interface Ladder {
  readonly caps: Capabilities;
  readonly seq: number;
  readonly parts: RenderedPart[];
  readonly choices: Choice[];
  /** Titles are unique across the whole message (a carousel's cards share one numbering and one set of answers). */
  readonly taken: Set<string>;
  degraded: boolean;
}

type LinkButton = Extract<Button, { kind: 'url' }>;

/** One block (a text, or a card) with its buttons and quick replies, as each rung sees it. */
interface Block {
  readonly body: string;
  readonly image?: string;
  readonly alt?: string;
  /** Its choices: reply buttons first, then quick replies. */
  readonly pending: readonly Pending[];
  readonly quick: readonly Pending[];
  /** Only quick replies, no reply buttons. */
  readonly quickOnly: boolean;
  /** Link buttons the channel shows as buttons; the others become lines. */
  readonly nativeLinks: readonly LinkButton[];
  readonly linkLines: readonly string[];
  /** The number of choices before this block: its own run on from there. */
  readonly first: number;
  readonly ids: readonly string[];
  readonly textMax: number;
}

/** Renders a block if the channel's form fits it, else leaves it to the next rung down. */
type Rung = (ladder: Ladder, block: Block) => boolean;

const linkLine = (link: LinkButton) => `${truncate(link.label, NUMBERED_TITLE_MAX)}: ${link.url}`;
const withLines = (text: string, lines: readonly string[]) =>
  lines.length === 0 ? text : `${text}\n\n${lines.join('\n')}`;
/** Every link as a line, once no native button carries them. */
const allLinkLines = (block: Block) => [...block.linkLines, ...block.nativeLinks.map(linkLine)];

/**
 * The block's choices titled within `titleMax`, unique across the message, and numbered on with its
 * other choices; `more` (link buttons' labels) are titled after them. Gives the titles.
 */
function takeChoices(ladder: Ladder, block: Block, titleMax: number, more: readonly string[] = []): string[] {
  const titles = uniqueTitles([...block.pending.map((p) => p.label), ...more], titleMax, ladder.taken);
  block.pending.forEach((p, i) =>
    ladder.choices.push({
      id: block.ids[i]!,
      number: block.first + i + 1,
      title: titles[i]!,
      label: p.label,
      message: p.message,
    }),
  );
  return titles;
}

function pushBody(
  ladder: Ladder,
  text: string,
  max: number,
  image?: string,
  buttons?: readonly RenderedButton[],
  alt?: string,
): void {
  if (image) {
    const caption = truncate(text, ladder.caps.captionMax);
    ladder.parts.push({
      kind: 'image',
      url: image,
      ...(alt ? { alt } : {}),
      ...(caption ? { caption } : {}),
      ...(buttons?.length ? { buttons } : {}),
    });
  } else ladder.parts.push({ kind: 'text', text: fitted(text, max), ...(buttons?.length ? { buttons } : {}) });
}

/** Rung 1a: quick replies as themselves (one-time keyboard): answered by their title. */
const quickRepliesRung: Rung = (ladder, block) => {
  const caps = ladder.caps.quickReplies;
  if (!block.quickOnly || !caps || block.quick.length > caps.max || block.image || block.nativeLinks.length > 0)
    return false;
  // quickOnly: its choices are its quick replies.
  const titles = takeChoices(ladder, block, caps.titleMax);
  const text = fitted(withLines(block.body, block.linkLines), ladder.caps.textMax);
  ladder.parts.push({ kind: 'text', text, quickReplies: titles });
  return true;
};

/** Rung 1b: reply buttons (and link buttons where the channel has them). */
const replyButtonsRung: Rung = (ladder, block) => {
  const caps = ladder.caps.buttons;
  const { pending, nativeLinks, ids } = block;
  if (
    !caps ||
    pending.length + nativeLinks.length > caps.max ||
    (pending.length === 0 && nativeLinks.length === 0) ||
    !ids.every((id) => utf8Bytes(id) <= caps.idMaxBytes)
  )
    return false;
  if (block.quick.length > 0 && !block.quickOnly) ladder.degraded = true;
  pushBody(
    ladder,
    withLines(block.body, block.linkLines),
    block.textMax,
    block.image,
    asButtons(ladder, block, caps.titleMax),
    block.alt,
  );
  return true;
};

/** A block's choices and native links as buttons, titled within `titleMax` (its choices counted in). */
function asButtons(ladder: Ladder, block: Block, titleMax: number): RenderedButton[] {
  const { pending, nativeLinks, ids } = block;
  const titles = takeChoices(
    ladder,
    block,
    titleMax,
    nativeLinks.map((l) => l.label),
  );
  return [
    ...pending.map((_, i): RenderedButton => ({ kind: 'choice', title: titles[i]!, id: ids[i]! })),
    ...nativeLinks.map((link, i): RenderedButton => ({
      kind: 'url',
      title: titles[pending.length + i]!,
      url: link.url,
    })),
  ];
}

/** Only links, none native: their lines. */
const linkLinesRung: Rung = (ladder, block) => {
  if (block.pending.length > 0) return false;
  pushBody(ladder, withLines(block.body, allLinkLines(block)), block.textMax, block.image, undefined, block.alt);
  return true;
};

/** Rung 2: a list. */
const listRung: Rung = (ladder, block) => {
  // Choices past the native buttons: the message is degraded whichever rung below takes them.
  ladder.degraded = true;
  const caps = ladder.caps.list;
  if (
    !caps ||
    block.pending.length > caps.max ||
    block.image ||
    !block.ids.every((id) => utf8Bytes(id) <= caps.idMaxBytes)
  )
    return false;
  const titles = takeChoices(ladder, block, caps.titleMax);
  ladder.parts.push({
    kind: 'text',
    text: fitted(withLines(block.body, allLinkLines(block)), ladder.caps.textMax),
    list: {
      button: caps.buttonTitle,
      rows: block.pending.map((_, i) => ({ kind: 'choice', title: titles[i]!, id: block.ids[i]! })),
    },
  });
  return true;
};

/** Rung 3: numbered text, answered by number or title; split over several messages when long. */
const numberedTextRung: Rung = (ladder, block) => {
  const { caps, parts } = ladder;
  const titles = takeChoices(ladder, block, NUMBERED_TITLE_MAX);
  const lines = [...titles.map((title, i) => `${block.first + i + 1}. ${title}`), ...allLinkLines(block)];
  const whole = withLines(block.body, lines);
  if (!block.image && whole.length <= caps.textMax) {
    parts.push({ kind: 'text', text: whole });
    return true;
  }
  pushBody(ladder, block.body, block.textMax, block.image, undefined, block.alt);
  let chunk = '';
  for (const line of lines) {
    const next = chunk === '' ? line : `${chunk}\n${line}`;
    if (next.length > caps.textMax && chunk !== '') {
      parts.push({ kind: 'text', text: chunk });
      chunk = truncate(line, caps.textMax);
    } else chunk = truncate(next, caps.textMax);
  }
  if (chunk !== '') parts.push({ kind: 'text', text: chunk });
  return true;
};

/** The rungs, top down; the last one takes every block. */
const RUNGS: readonly Rung[] = [quickRepliesRung, replyButtonsRung, linkLinesRung, listRung, numberedTextRung];

/** One block rendered down the ladder. */
function renderBlock(ladder: Ladder, block: Block): void {
  for (const rung of RUNGS) if (rung(ladder, block)) return;
}

/** A text or a card with its buttons and quick replies, its choices numbered on from the message's last. */
function blockOf(
  ladder: Ladder,
  body: string,
  buttons: readonly Button[],
  quick: readonly Pending[],
  image?: string,
  alt?: string,
): Block {
  const pending = [...buttons.map(asChoice).filter((c): c is Pending => c !== null), ...quick];
  const links = buttons.filter((b): b is LinkButton => b.kind === 'url');
  const nativeLinks = ladder.caps.buttons?.url ? links.filter((link) => linkable(link.url)) : [];
  const first = ladder.choices.length;
  return {
    body,
    ...(image ? { image } : {}),
    ...(alt ? { alt } : {}),
    pending,
    quick,
    quickOnly: quick.length > 0 && pending.length === quick.length,
    nativeLinks,
    linkLines: links.filter((link) => !nativeLinks.includes(link)).map(linkLine),
    first,
    ids: pending.map((_, i) => choiceId(ladder.seq, first + i)),
    textMax: image ? ladder.caps.captionMax : ladder.caps.textMax,
  };
}

type CardSet = NonNullable<Capabilities['cards']>;

/**
 * A card within a card set's limits (its choices taken), or null when it does not fit one and goes on
 * its own: then a vendor refusing it (its image's address, say) does not take the other cards with it.
 */
function setCard(ladder: Ladder, set: CardSet, card: Card): RenderedCard | null {
  const imageUrl = ladder.caps.images && card.imageUrl ? card.imageUrl : undefined;
  const block = blockOf(ladder, plainText(card.title).replace(/\s+/g, ' '), card.buttons ?? [], [], imageUrl);
  const subtitle = truncate(plainText(card.subtitle ?? '').trim(), set.subtitleMax);
  const buttons = block.pending.length + block.nativeLinks.length;
  if (
    (imageUrl !== undefined && !/^https?:\/\//i.test(imageUrl)) ||
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
    if (ladder.caps.images)
      ladder.parts.push({ kind: 'image', url: message.url, ...(message.alt ? { alt: message.alt } : {}) });
    else {
      ladder.degraded = true;
      const text = fitted(message.alt ? `${message.alt}: ${message.url}` : message.url, ladder.caps.textMax);
      ladder.parts.push({ kind: 'text', text });
    }
  },
  carousel: (message, ladder) => {
    const set = ladder.caps.cards;
    let run: RenderedCard[] = [];
    const close = () => {
      if (run.length > 0) ladder.parts.push({ kind: 'cards', cards: run });
      run = [];
    };
    for (const card of message.cards) {
      const fitting = set && setCard(ladder, set, card);
      if (set && fitting) {
        run.push(fitting);
        if (run.length === set.max) close();
        continue;
      }
      close();
      // On a channel with card sets, a card on its own is a lower form than its own.
      if (set) ladder.degraded = true;
      cardOnItsOwn(ladder, card);
    }
    close();
  },
};

function renderKind<M extends BotMessage>(message: M, ladder: Ladder): void {
  (MESSAGE_KINDS[message.type] as (message: M, ladder: Ladder) => void)(message, ladder);
}

/** Cut to the limit; never empty (vendors refuse an empty text). */
function fitted(text: string, max: number): string {
  return truncate(text.trim() === '' ? '…' : text, max);
}

/**
 * The choice a typed answer names: its title or label (any case, spaces trimmed), else its number.
 * Over several messages' choices, the latest message's counts (numbers start at 1 in each).
 */
export function choiceByAnswer(text: string, choices: readonly Choice[]): Choice | undefined {
  const answer = text.trim().toLowerCase();
  if (answer === '') return undefined;
  const named =
    choices.findLast((c) => c.title.toLowerCase() === answer) ??
    choices.findLast((c) => c.label.trim().toLowerCase() === answer);
  if (named) return named;
  const number = /^(\d{1,4})\.?$/.exec(answer)?.[1];
  return number === undefined ? undefined : choices.findLast((c) => c.number === Number(number));
}
