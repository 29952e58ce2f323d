import type { BotMessage, Button, UserMessage } from '../../../shared/protocol.ts';
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
    };

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
 * | carousel | per card: image with caption (or text) and its buttons as above; numbers run on across cards |
 * | notice | text |
 * | link buttons | link buttons (https only) → "title: address" lines |
 */
export function renderMessage(message: BotMessage, caps: Capabilities, seq: number): Rendered {
  const choices: Choice[] = [];
  const parts: RenderedPart[] = [];
  let degraded = false;
  // Titles are unique across the whole message (a carousel's cards share one numbering and one set of answers).
  const taken = new Set<string>();

  /** One block (a text, or a card) with its buttons and quick replies, rendered down the ladder. */
  const block = (body: string, buttons: readonly Button[], quick: readonly Pending[], image?: string, alt?: string) => {
    const pending = [...buttons.map(asChoice).filter((c): c is Pending => c !== null), ...quick];
    const links = buttons.filter((b): b is Extract<Button, { kind: 'url' }> => b.kind === 'url');
    const first = choices.length;
    const nativeLinks = caps.buttons?.url ? links.filter((link) => linkable(link.url)) : [];
    const textLinks = links.filter((link) => !nativeLinks.includes(link));
    const add = (titles: readonly string[]) =>
      pending.forEach((p, i) =>
        choices.push({
          id: choiceId(seq, first + i),
          number: first + i + 1,
          title: titles[i]!,
          label: p.label,
          message: p.message,
        }),
      );
    const ids = pending.map((_, i) => choiceId(seq, first + i));
    const linkLines = textLinks.map((link) => `${truncate(link.label, NUMBERED_TITLE_MAX)}: ${link.url}`);
    const withLines = (text: string, lines: readonly string[]) =>
      lines.length === 0 ? text : `${text}\n\n${lines.join('\n')}`;
    const textMax = image ? caps.captionMax : caps.textMax;

    const quickOnly = quick.length > 0 && pending.length === quick.length;
    // Rung 1a: quick replies as themselves (one-time keyboard): answered by their title.
    if (quickOnly && caps.quickReplies && quick.length <= caps.quickReplies.max && !image && nativeLinks.length === 0) {
      const titles = uniqueTitles(
        quick.map((q) => q.label),
        caps.quickReplies.titleMax,
        taken,
      );
      add(titles);
      parts.push({ kind: 'text', text: fitted(withLines(body, linkLines), caps.textMax), quickReplies: titles });
      return;
    }
    // Rung 1b: reply buttons (and link buttons where the channel has them).
    const buttonCaps = caps.buttons;
    if (
      buttonCaps &&
      pending.length + nativeLinks.length <= buttonCaps.max &&
      (pending.length > 0 || nativeLinks.length > 0) &&
      ids.every((id) => utf8Bytes(id) <= buttonCaps.idMaxBytes)
    ) {
      if (quick.length > 0 && !quickOnly) degraded = true;
      const titles = uniqueTitles(
        [...pending.map((p) => p.label), ...nativeLinks.map((l) => l.label)],
        buttonCaps.titleMax,
        taken,
      );
      add(titles);
      const rendered: RenderedButton[] = [
        ...pending.map((_, i): RenderedButton => ({ kind: 'choice', title: titles[i]!, id: ids[i]! })),
        ...nativeLinks.map((link, i): RenderedButton => ({
          kind: 'url',
          title: titles[pending.length + i]!,
          url: link.url,
        })),
      ];
      pushBody(withLines(body, linkLines), textMax, image, rendered, alt);
      return;
    }
    if (pending.length === 0) {
      // Only links, none native: their lines.
      pushBody(
        withLines(body, [
          ...linkLines,
          ...nativeLinks.map((link) => `${truncate(link.label, NUMBERED_TITLE_MAX)}: ${link.url}`),
        ]),
        textMax,
        image,
        undefined,
        alt,
      );
      return;
    }
    degraded = true;
    const allLinkLines = [
      ...linkLines,
      ...nativeLinks.map((link) => `${truncate(link.label, NUMBERED_TITLE_MAX)}: ${link.url}`),
    ];
    // Rung 2: a list.
    const listCaps = caps.list;
    if (
      listCaps &&
      pending.length <= listCaps.max &&
      !image &&
      ids.every((id) => utf8Bytes(id) <= listCaps.idMaxBytes)
    ) {
      const titles = uniqueTitles(
        pending.map((p) => p.label),
        listCaps.titleMax,
        taken,
      );
      add(titles);
      parts.push({
        kind: 'text',
        text: fitted(withLines(body, allLinkLines), caps.textMax),
        list: {
          button: listCaps.buttonTitle,
          rows: pending.map((_, i) => ({ kind: 'choice', title: titles[i]!, id: ids[i]! })),
        },
      });
      return;
    }
    // Rung 3: numbered text, answered by number or title; split over several messages when long.
    const titles = uniqueTitles(
      pending.map((p) => p.label),
      NUMBERED_TITLE_MAX,
      taken,
    );
    add(titles);
    const lines = [...titles.map((title, i) => `${first + i + 1}. ${title}`), ...allLinkLines];
    const whole = withLines(body, lines);
    if (!image && whole.length <= caps.textMax) {
      parts.push({ kind: 'text', text: whole });
      return;
    }
    pushBody(body, textMax, image, undefined, alt);
    let chunk = '';
    for (const line of lines) {
      const next = chunk === '' ? line : `${chunk}\n${line}`;
      if (next.length > caps.textMax && chunk !== '') {
        parts.push({ kind: 'text', text: chunk });
        chunk = truncate(line, caps.textMax);
      } else chunk = truncate(next, caps.textMax);
    }
    if (chunk !== '') parts.push({ kind: 'text', text: chunk });
  };

  const pushBody = (text: string, max: number, image?: string, buttons?: readonly RenderedButton[], alt?: string) => {
    if (image) {
      const caption = truncate(text, caps.captionMax);
      parts.push({
        kind: 'image',
        url: image,
        ...(alt ? { alt } : {}),
        ...(caption ? { caption } : {}),
        ...(buttons?.length ? { buttons } : {}),
      });
    } else parts.push({ kind: 'text', text: fitted(text, max), ...(buttons?.length ? { buttons } : {}) });
  };

  switch (message.type) {
    case 'text':
      block(
        plainText(message.text),
        message.buttons ?? [],
        (message.quickReplies ?? []).map((q) => ({
          label: q.label,
          message: { type: 'postback', label: q.label, payload: q.payload },
        })),
      );
      break;
    case 'notice':
      parts.push({ kind: 'text', text: fitted(message.text, caps.textMax) });
      break;
    case 'image':
      if (caps.images) parts.push({ kind: 'image', url: message.url, ...(message.alt ? { alt: message.alt } : {}) });
      else {
        degraded = true;
        parts.push({
          kind: 'text',
          text: fitted(message.alt ? `${message.alt}: ${message.url}` : message.url, caps.textMax),
        });
      }
      break;
    case 'carousel':
      for (const card of message.cards) {
        const body = card.subtitle ? `${card.title}\n${card.subtitle}` : card.title;
        const image = caps.images && card.imageUrl && caps.captionMax > 0 ? card.imageUrl : undefined;
        if (card.imageUrl && !image) degraded = true;
        block(plainText(body), card.buttons ?? [], [], image, card.imageAlt);
      }
      break;
  }
  return { parts, choices, degraded };
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
