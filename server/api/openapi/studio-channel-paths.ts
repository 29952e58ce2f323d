/**
 * Settings → Channels in the OpenAPI document (server/studio-server/channels/channel-routes.ts),
 * built from the map: only the words are written here.
 */
import { mapPaths, type OperationWords } from './studio-map-operations.ts';
import { error, type Obj } from './studio-openapi-parts.ts';

const tag = 'Studio: people';
const role = 'manageChannels (owner)';

const words = {
  listChannels: {
    tag,
    role,
    summary: "The vendors' connectors, their settings and webhook URLs",
    description:
      "Each connector (Telegram, WhatsApp, Twilio, Slack, Messenger, Teams) with where its settings come from (the environment wins over the studio, for the whole connector), whether it is on and what it still needs, each channel's webhook URL, and each setting: set or not, and the value of those that are not credentials. A credential's value is never answered.",
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
} as const satisfies Record<string, OperationWords>;

export const studioChannelPaths = (): Obj => mapPaths(words);
