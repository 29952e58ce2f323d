/** The channel view's words, in the studio's two languages (the designer's catalogue is its own). */
export interface ChannelViewStrings {
  readonly heading: string;
  readonly channels: string;
  readonly empty: string;
  readonly rendering: string;
  readonly failed: string;
  readonly degraded: string;
  readonly native: string;
  readonly buttons: string;
  readonly list: string;
  readonly quickReplies: string;
  readonly link: string;
  readonly image: string;
  readonly cards: string;
  readonly card: string;
  readonly message: string;
}

const en: ChannelViewStrings = {
  heading: 'The last message on other channels',
  channels: 'Channels',
  empty: 'Once the bot says something in the preview, its last message shows here as each channel renders it.',
  rendering: 'Rendering…',
  failed: 'The message could not be rendered: {message}',
  degraded: 'It does not fit {channel}’s own form: it goes in a simpler one.',
  native: 'It goes in {channel}’s own form.',
  buttons: 'Buttons',
  list: 'A list, opened by “{button}”',
  quickReplies: 'Quick replies',
  link: '{title} (link to {url})',
  image: 'Image: {alt}',
  cards: '{count} cards side by side',
  card: 'Card {n} of {count}',
  message: 'Message {n} of {count}',
};

const de: ChannelViewStrings = {
  heading: 'Die letzte Nachricht auf anderen Kanälen',
  channels: 'Kanäle',
  empty:
    'Sobald der Bot in der Vorschau etwas sagt, erscheint hier seine letzte Nachricht so, wie jeder Kanal sie darstellt.',
  rendering: 'Wird dargestellt …',
  failed: 'Die Nachricht konnte nicht dargestellt werden: {message}',
  degraded: 'Sie passt nicht in die eigene Form von {channel} und wird einfacher gesendet.',
  native: 'Sie wird in der eigenen Form von {channel} gesendet.',
  buttons: 'Schaltflächen',
  list: 'Eine Liste, geöffnet mit „{button}“',
  quickReplies: 'Schnellantworten',
  link: '{title} (Link zu {url})',
  image: 'Bild: {alt}',
  cards: '{count} Karten nebeneinander',
  card: 'Karte {n} von {count}',
  message: 'Nachricht {n} von {count}',
};

export const channelViewStrings = (locale: string | undefined): ChannelViewStrings =>
  locale?.toLowerCase().startsWith('de') ? de : en;
