/**
 * The shared structured messages (shared/protocol.ts) as OpenAPI component schemas: what the
 * REST channel's answers, its callbacks, GET …/messages and the transcript export carry.
 * Each kind is told apart by `type` (buttons by `kind`); properties beyond those listed may
 * be added by later versions, so a reader should ignore what it does not know.
 */

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const object = (
  title: string,
  description: string,
  required: string[],
  properties: Record<string, Schema>,
): Schema => ({
  title,
  description,
  type: 'object',
  required,
  properties,
});

const label = text('What the button shows.');

/** A kind of button: what it shows, and the one field that says what pressing it does. */
const button = (kind: string, title: string, description: string, field: string, fieldDescription: string) =>
  object(title, description, ['kind', 'label', field], {
    kind: { const: kind },
    label,
    [field]: text(fieldDescription),
  });

export const messageSchemas: Record<string, Schema> = {
  Button: {
    title: 'Button',
    description: 'A button under a text message or a carousel card, told apart by `kind`.',
    oneOf: [
      button(
        'postback',
        'Postback button',
        'Pressing it sends `payload` back as the user\'s answer (REST channel: `{"type":"button","label","payload"}`).',
        'payload',
        'What to send back when pressed.',
      ),
      button(
        'url',
        'URL button',
        "Opens `url`: a tracked link on the bot's own public address (`…/r/<token>`) that records the click and redirects to the target.",
        'url',
        'The tracked link to open (absolute).',
      ),
      button(
        'dialog',
        'Dialog button',
        'Pressing it starts the dialog `dialogId` (REST channel: `{"type":"dialog","label","dialogId"}`).',
        'dialogId',
        'The dialog it starts.',
      ),
    ],
  },
  QuickReply: object(
    'Quick reply',
    'A one-tap answer offered under the latest message only; pressing it sends `payload` like a postback button.',
    ['label', 'payload'],
    {
      label,
      payload: text('What to send back when pressed.'),
    },
  ),
  Card: object('Carousel card', 'One card of a carousel.', ['title'], {
    title: text("The card's title."),
    subtitle: text('A line under the title.'),
    imageUrl: text('An image for the card.'),
    imageAlt: text("The image's alternative text."),
    buttons: { type: 'array', items: ref('Button') },
  }),
  BotMessage: {
    title: 'Bot message',
    description: 'What the bot says, told apart by `type`.',
    oneOf: [
      object(
        'Text',
        'Text in a safe markdown subset (**bold**, *italic*, `code`, [links](https://…), line breaks; never HTML), with optional buttons and quick replies.',
        ['type', 'text'],
        {
          type: { const: 'text' },
          text: text('The text.'),
          buttons: { type: 'array', items: ref('Button') },
          quickReplies: { type: 'array', items: ref('QuickReply') },
        },
      ),
      object('Image', 'An image.', ['type', 'url', 'alt'], {
        type: { const: 'image' },
        url: text('Where the image is.'),
        alt: text('Its alternative text.'),
      }),
      object('Carousel', 'Cards side by side.', ['type', 'cards'], {
        type: { const: 'carousel' },
        cards: { type: 'array', items: ref('Card') },
      }),
      object(
        'Notice',
        'A line about the conversation; `fatal` means it ended in an error and takes no more input.',
        ['type', 'level', 'text'],
        {
          type: { const: 'notice' },
          level: { type: 'string', enum: ['fatal', 'info'] },
          text: text('The notice.'),
        },
      ),
      object(
        'Event',
        "An event step of the bot (on the web chat it runs a listener of the page), stored with its own seq after the turn's other messages.",
        ['type', 'name', 'payload'],
        {
          type: { const: 'event' },
          name: text("The event's name."),
          payload: { type: 'object', additionalProperties: true },
        },
      ),
    ],
  },
  UserMessage: {
    title: 'User message',
    description: 'What the user sent, told apart by `type`.',
    oneOf: [
      object('Typed text', 'Text the user typed.', ['type', 'text'], {
        type: { const: 'text' },
        text: text('The text.'),
      }),
      object('Pressed button', 'A postback button or quick reply the user pressed.', ['type', 'label', 'payload'], {
        type: { const: 'postback' },
        label,
        payload: text('The payload it sent.'),
      }),
      object('Pressed dialog button', 'A button that started a dialog.', ['type', 'label', 'dialogId'], {
        type: { const: 'dialog' },
        label,
        dialogId: text('The dialog it started.'),
      }),
    ],
  },
  TranscriptItem: object(
    'Transcript item',
    "One message of a user's conversation, as every channel carries it.",
    ['seq', 'from', 'at', 'clientId', 'message'],
    {
      seq: {
        type: 'integer',
        minimum: 1,
        description: 'Per-user sequence number: orders and deduplicates; pass the last one seen as `after`.',
      },
      from: { type: 'string', enum: ['user', 'bot'] },
      at: { type: 'string', format: 'date-time', description: 'When the server stored it.' },
      clientId: { type: ['string', 'null'], description: "The sender's id for a user message; null for the bot's." },
      message: {
        anyOf: [ref('BotMessage'), ref('UserMessage')],
        description: 'A bot message when `from` is bot, a user message when it is user.',
      },
    },
  ),
  BotEvent: object(
    'Bot event',
    'An event step of the bot; each is also an event message in `messages`.',
    ['name', 'payload'],
    {
      name: text("The event's name."),
      payload: { type: 'object', additionalProperties: true },
    },
  ),
  ChannelCallback: {
    ...object(
      'Channel callback',
      "What the bot says to a REST channel user on its own (a wait step's timer, a trigger, an asynchronous result), POSTed to the channel's callbackUrl: the messages in seq order, then the events among them listed again.",
      ['channel', 'user', 'messages', 'events'],
      {
        channel: text("The channel's name (its channelId)."),
        user: text("The channel's id for the user."),
        messages: { type: 'array', items: ref('TranscriptItem') },
        events: { type: 'array', items: ref('BotEvent') },
      },
    ),
    additionalProperties: false,
  },
};
