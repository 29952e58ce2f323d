import type { Button, UserMessage } from '../../../shared/protocol.ts';
import { truncate, uniqueTitles, utf8Bytes } from './graphemes.ts';
import { choiceId, type Capabilities, type Choice, type RenderedButton, type RenderedPart } from './rendered-parts.ts';

/**
 * The rungs one block (a text, or a card on its own) goes down: the channel's native form, else its
 * next native form, else numbered text. Each rung renders the block when the channel's form fits it.
 */

/** Longest title in a numbered list: long enough to read, short enough that many fit one message. */
const NUMBERED_TITLE_MAX = 80;
/** An address a vendor will open from a button: https only, not a loopback or private host name. */
function linkable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' && !/^(localhost|127\.|\[::1\]|10\.|192\.168\.)/.test(parsed.hostname);
  } catch {
    return false;
  }
}

export interface Pending {
  readonly label: string;
  readonly message: UserMessage;
}

const asChoice = (button: Button): Pending | null =>
  button.kind === 'postback'
    ? { label: button.label, message: { type: 'postback', label: button.label, payload: button.payload } }
    : button.kind === 'dialog'
      ? { label: button.label, message: { type: 'dialog', label: button.label, dialogId: button.dialogId } }
      : null;
/** One message's rendering as it goes: its parts, its numbered choices, whether it fell down a rung. */
export interface Ladder {
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
export interface Block {
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
export function takeChoices(ladder: Ladder, block: Block, titleMax: number, more: readonly string[] = []): string[] {
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
export function asButtons(ladder: Ladder, block: Block, titleMax: number): RenderedButton[] {
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
export function renderBlock(ladder: Ladder, block: Block): void {
  for (const rung of RUNGS) if (rung(ladder, block)) return;
}

/** A text or a card with its buttons and quick replies, its choices numbered on from the message's last. */
export function blockOf(
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

/** Cut to the limit; never empty (vendors refuse an empty text). */
export function fitted(text: string, max: number): string {
  return truncate(text.trim() === '' ? '…' : text, max);
}
