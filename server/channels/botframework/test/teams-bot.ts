import { channelTestBot } from '../../connector/test/channel-test-bot.ts';

/** The bot the Teams tests talk to: a welcome, a choice (quick replies), a button naming the user, an echo loop, a trigger dialog. */
export const teamsBot = () =>
  channelTestBot({
    id: 'teams-bot',
    greeting: 'Welcome.',
    userDataFields: ['teamsName'],
    chosen: 'You chose {{plan}}, {{teamsName}}.',
  });
