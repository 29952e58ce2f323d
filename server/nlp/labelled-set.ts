/**
 * A small labelled set for the demo bot's intents, written by hand and kept
 * apart from the training utterances: phrasings the bot never saw. `null`:
 * text that should match no intent (it must stay below the threshold).
 */
export const LABELLED_UTTERANCES: readonly (readonly [string, string | null])[] = [
  ['show me what you can do', 'menu'],
  ['menu please', 'menu'],
  ['what are my options', 'menu'],
  ['I need help', 'menu'],
  ['go back to the main menu', 'menu'],
  ['could you set a timer', 'timer'],
  ['start the timer now', 'timer'],
  ['remind me in a bit', 'timer'],
  ['please wait for me', 'timer'],
  ['kick off the long operation', 'timer'],
  ['send an email to me', 'email'],
  ['can you email me', 'email'],
  ['mail it to me', 'email'],
  ['I want an email', 'email'],
  ['write to my inbox', 'email'],
  ['I have a quick question', 'question'],
  ['may I ask you something', 'question'],
  ['got a question for you', 'question'],
  ['I want to ask a question', 'question'],
  ['bye bye', 'goodbye'],
  ['goodbye and thanks', 'goodbye'],
  ['please close the chat', 'goodbye'],
  ['see you', 'goodbye'],
  ['thanks, that is all', 'goodbye'],
  ['hi there', 'hello'],
  ['hey', 'hello'],
  ['hello bot', 'hello'],
  ['good morning to you', 'hello'],
  ['the cat sat on the mat', null],
  ['purple elephants dance', null],
  ['1234567', null],
  ['asdf qwer zxcv', null],
];
