import type { Card, UserMessage } from '../../../shared/protocol.ts';

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
   * The server's public address (PUBLIC_URL), which an image given by its path (`/images/a.png`) is
   * fetched from; absent: such an image takes the next rung (image-address.ts). Deployment, not the
   * vendor's: set when the connector is built.
   */
  readonly publicUrl?: string;
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
    /**
     * Whether one message can carry these cards, for a vendor whose limit is the message's size (Teams:
     * 28 KB); a card past it starts the next set, and a card too large for a set of its own goes on its
     * own. Absent: any `max` cards fit.
     */
    readonly fits?: (cards: readonly RenderedCard[]) => boolean;
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

/** The id a native button carries: the bot message's seq and the choice's place in it. */
export const choiceId = (seq: number, index: number) => `${seq}.${index}`;
