import { channelTestBot } from '../../connector/test/channel-test-bot.ts';

/** The bot the Slack tests talk to: the channel test bot (with a link button, a greeting with Slack's markup characters) and a dialog with an image and cards. */
export const slackBot = () =>
  channelTestBot({
    id: 'slack-bot',
    greeting: 'Hello <@{{slackUserId}}> & welcome.',
    userDataFields: ['slackUserId'],
    links: true,
    dialogs: [
      {
        id: 'pictures',
        steps: [
          { id: 'photo', type: 'message', image: { url: 'https://cdn.example.com/shop.png', alt: 'The shop' } },
          {
            id: 'cards',
            type: 'message',
            cards: [
              {
                title: 'Red shoes',
                subtitle: 'Size 38 to 44',
                imageUrl: 'https://cdn.example.com/red.png',
                imageAlt: 'A pair of red shoes',
                buttons: [{ kind: 'postback', label: 'Buy', payload: 'buy-red' }],
              },
              {
                title: 'Blue shoes',
                imageUrl: 'https://cdn.example.com/blue.png',
                buttons: [{ kind: 'postback', label: 'Buy', payload: 'buy-blue' }],
              },
            ],
          },
          { id: 'end', type: 'end' },
        ],
      },
    ],
  });
