/**
 * The preview's channel view in the OpenAPI document (server/studio-server/preview/
 * channel-preview-routes.ts), built from the map: only the words are written here.
 */
import { mapPaths, type OperationWords } from './studio-map-operations.ts';
import type { Obj } from './studio-openapi-parts.ts';

const words = {
  previewChannels: {
    tag: 'Studio: versions',
    role: 'readBot (any role)',
    summary: 'A bot message as each channel shows it',
    description:
      "Renders one bot message (as the web chat received it: text with buttons and quick replies, image, carousel, notice) through each vendor connector's rendering ladder: Telegram, WhatsApp, SMS through Twilio, Slack, Messenger and Teams. Each channel's answer lists the messages its user would receive: texts (cut to the channel's limit), native buttons with their titles as shown, a list, quick replies, or numbered lines to answer by number or title, and whether the message had to take a simpler form than its own. Nothing is sent or stored.",
    answer:
      '`{ channels: [{ channel, degraded, parts: [{ kind: "text", text, buttons?: [{ title, url? }], list?: { button, rows }, quickReplies? } | { kind: "image", url, alt?, caption?, buttons? }] }] }`.',
  },
} as const satisfies Record<string, OperationWords>;

export const studioPreviewPaths = (): Obj => mapPaths(words);
