/**
 * Settings → Channels (server/studio-server/channels/channel-routes.ts) and the preview's channel view
 * (server/studio-server/preview/channel-preview-routes.ts) in the OpenAPI document, in words; paths,
 * bodies and answers come from the map (studio-map-operations.ts).
 */
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import { error } from './operation-parts.ts';
import { type OperationWords } from './studio-openapi-parts.ts';

const tag = 'Studio: people';
const role = 'manageChannels (owner)';

export const channelWords = {
  listChannels: {
    tag,
    role,
    summary: "The vendors' connectors, their settings and webhook URLs",
    description:
      "Each connector (Telegram, WhatsApp, Twilio, Slack, Messenger, Teams) with where its settings come from (the environment wins over the studio, for the whole connector), whether it is on and what it still needs, each channel's webhook URL, whether an image the bot gives by its path cannot reach it (`imagePathsUnresolved`: the connector is on and the server has no PUBLIC_URL, so such an image goes as its description), and each setting: set or not, and the value of those that are not credentials. A credential's value is never answered.",
    answer: 'The connectors, in a fixed order.',
  },
  saveChannel: {
    tag,
    role,
    summary: "Change a connector's settings kept in the studio; it applies at once, on every node",
    description:
      'Sets (a value) or removes (null) settings of one connector, named as their environment variables; the others stay. Each value is checked by the rule the environment variable has. Audited with the names of the settings changed, never a value.',
    answer: 'The connector as it is now.',
    errors: {
      '400': error(
        'invalid_body: a setting that is not this connector’s, or a value its rule refuses; details.fields names each with its rule.',
      ),
      '409': error(
        'set_in_environment: the environment sets this connector (it wins; change it there); conflict: a REST channel holds the name.',
      ),
    },
  },
  testChannel: {
    tag,
    role,
    summary: 'Send a test message through a channel',
    description:
      "Sends `text` to `address` (a Telegram chat id, a phone number, a Slack channel id …) through the channel's real send, outside the queue, and answers with what the vendor said. Audited without the address.",
    answer: 'Whether the vendor accepted the message, with its code and words when it refused.',
    errors: { '409': error('channel_off: the channel is off; details.missing names what it needs.') },
  },
  previewChannels: {
    tag: 'Studio: versions',
    role: 'readBot (any role)',
    summary: 'A bot message as each channel shows it',
    description:
      "Renders one bot message (as the web chat received it: text with buttons and quick replies, image, carousel, notice) through each vendor connector's rendering ladder: Telegram, WhatsApp, SMS through Twilio, Slack, Messenger and Teams. Each channel's answer lists the messages its user would receive: texts (cut to the channel's limit), native buttons with their titles as shown, a list, quick replies, numbered lines to answer by number or title, or cards side by side in one message (Messenger's carousel), and whether the message had to take a simpler form than its own. Nothing is sent or stored.",
    answer: 'The message on each channel, after its rendering ladder.',
  },
} as const satisfies Partial<Record<StudioRouteName, OperationWords>>;
