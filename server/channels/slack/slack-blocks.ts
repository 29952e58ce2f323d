import { truncate } from '../connector/graphemes.ts';
import { textOrImage, type Capabilities, type RenderedButton, type RenderedPart } from '../connector/ladder.ts';

/**
 * Block Kit's limits (api.slack.com/reference/block-kit: blocks, block elements, composition
 * objects): 50 blocks a message; an actions block holds 25 elements; a section's text 3000
 * characters; a button's text 75, its value 2000, its url 3000; a static select 100 options (text
 * 75, value 150) and a placeholder of 150; an image's url 3000 and alt text 2000.
 */
export const SLACK_LIMITS = { sectionText: 3000, actions: 25, buttonUrl: 3000, imageUrl: 3000, altText: 2000 } as const;

/**
 * What the ladder may send on Slack: text and captions of one section (3000), up to 25 buttons (one
 * actions block, links among them), past that a static select of up to 100 options, images. Slack
 * has no quick replies: they become buttons.
 */
export const SLACK_CAPABILITIES: Capabilities = {
  textMax: SLACK_LIMITS.sectionText,
  captionMax: SLACK_LIMITS.sectionText,
  buttons: { max: SLACK_LIMITS.actions, titleMax: 75, idMaxBytes: 2000, url: true },
  list: { max: 100, titleMax: 75, idMaxBytes: 150, buttonTitle: 'Choose…' },
  quickReplies: null,
  images: true,
};

type Block = Record<string, unknown>;

/** The three characters Slack's markup gives a meaning to, escaped as its formatting guide asks. */
const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A text object for a section: `mrkdwn` (Slack makes its addresses links) with &, <, > escaped; when
 * the escapes would take it past the section's limit, `plain_text`, which needs none.
 */
function sectionText(text: string): Block {
  const marked = escapeMarkup(text);
  return marked.length <= SLACK_LIMITS.sectionText
    ? { type: 'mrkdwn', text: marked }
    : { type: 'plain_text', text: truncate(text, SLACK_LIMITS.sectionText), emoji: true };
}

const plain = (text: string, max: number) => ({
  type: 'plain_text',
  text: truncate(text.trim() === '' ? '…' : text, max),
  emoji: true,
});

/** A button: a choice carries its id back as `value`; a link opens its address (too long an address: left out, its title stays in the text). */
function button(rendered: RenderedButton, index: number): Block | undefined {
  if (rendered.kind === 'url')
    return rendered.url.length <= SLACK_LIMITS.buttonUrl
      ? { type: 'button', action_id: `link-${index}`, text: plain(rendered.title, 75), url: rendered.url }
      : undefined;
  return { type: 'button', action_id: `choice-${index}`, text: plain(rendered.title, 75), value: rendered.id };
}

function actions(buttons: readonly RenderedButton[] | undefined): Block[] {
  const elements = (buttons ?? [])
    .map(button)
    .filter((element): element is Block => element !== undefined)
    .slice(0, SLACK_LIMITS.actions);
  return elements.length === 0 ? [] : [{ type: 'actions', elements }];
}

/** An image a message can show: Slack fetches it, and refuses the whole message over a bad address. */
const image = (url: string, alt: string) => ({
  type: 'image',
  image_url: url,
  alt_text: truncate(alt.trim() === '' ? 'Image' : alt, SLACK_LIMITS.altText),
});

/**
 * One rendered part as a chat.postMessage body: `text` (always: notifications, screen readers and
 * old clients show it) and the blocks that draw it. A text part is a section, its buttons an actions
 * block, its list a static select; an image part with a caption (a carousel's card) is a section
 * with the image beside it, one without an image block. Never more than three blocks.
 */
export function slackMessage(rendered: RenderedPart): { text: string; blocks: Block[] } {
  const part = textOrImage(rendered);
  if (part.kind === 'image') {
    if (part.url.length > SLACK_LIMITS.imageUrl) return slackMessage(withoutImage(part));
    const caption = part.caption ?? '';
    const blocks: Block[] =
      caption === ''
        ? [image(part.url, part.alt ?? 'Image')]
        : [{ type: 'section', text: sectionText(caption), accessory: image(part.url, part.alt ?? caption) }];
    return { text: escapeMarkup(caption === '' ? part.url : caption), blocks: [...blocks, ...actions(part.buttons)] };
  }
  const message = textMessage(part.text, part.buttons);
  if (part.list) {
    message.blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'static_select',
          action_id: 'choose',
          placeholder: plain(part.list.button, 150),
          options: part.list.rows.map((row) => ({
            text: plain(row.title, 75),
            value: row.kind === 'choice' ? row.id : row.url,
          })),
        },
      ],
    });
  }
  return message;
}

function textMessage(text: string, buttons: readonly RenderedButton[] | undefined): { text: string; blocks: Block[] } {
  const shown = text.trim() === '' ? '…' : text;
  return { text: escapeMarkup(shown), blocks: [{ type: 'section', text: sectionText(shown) }, ...actions(buttons)] };
}

/** The same part with its image left out, as a link in the text: what is sent when Slack cannot fetch the image. */
export function withoutImage(part: Extract<RenderedPart, { kind: 'image' }>): RenderedPart {
  const caption = part.caption ?? '';
  return {
    kind: 'text',
    text: truncate(caption === '' ? part.url : `${caption}\n${part.url}`, SLACK_LIMITS.sectionText),
    ...(part.buttons ? { buttons: part.buttons } : {}),
  };
}
