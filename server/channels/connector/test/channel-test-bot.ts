/**
 * The bot every connector's channel tests talk to: a greeting that names the user (by the field the
 * channel tells about them), a choice (quick replies), a button, an echo loop, a trigger dialog, and
 * any dialogs a channel's tests add.
 */
export function channelTestBot(options: {
  readonly id: string;
  readonly greeting: string;
  readonly userDataFields: readonly string[];
  /** What the bot says once a plan is picked; by default 'You chose {{plan}}.' */
  readonly chosen?: string;
  readonly links?: boolean;
  readonly dialogs?: readonly object[];
}) {
  return {
    settings: { id: options.id, name: `${options.id} (test)`, startDialog: 'home' },
    userDataFields: [...options.userDataFields, 'plan'],
    dialogs: [
      {
        id: 'home',
        steps: [
          { id: 'hello', type: 'message', text: options.greeting },
          {
            id: 'pick',
            type: 'input',
            prompt: 'Pick a plan.',
            inputType: 'choice',
            choices: [
              { label: 'Basic', value: 'basic' },
              { label: 'Pro', value: 'pro' },
            ],
            saveTo: { userData: 'plan' },
          },
          {
            id: 'chosen',
            type: 'message',
            text: options.chosen ?? 'You chose {{plan}}.',
            buttons: [
              { kind: 'postback', label: 'Tell me more', payload: 'more' },
              ...(options.links ? [{ kind: 'url', label: 'Pricing', url: 'https://shop.example.com/pricing' }] : []),
            ],
          },
          { id: 'echo', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
          { id: 'said', type: 'message', text: 'You said {{said}}.' },
          { id: 'again', type: 'goto', dialog: 'home', step: 'echo' },
        ],
      },
      {
        id: 'news',
        steps: [
          { id: 'say', type: 'message', text: 'News for you.' },
          { id: 'end', type: 'end' },
        ],
      },
      ...(options.dialogs ?? []),
    ],
  };
}
