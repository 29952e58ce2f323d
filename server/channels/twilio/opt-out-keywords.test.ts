import { describe, expect, it } from 'vitest';
import { carrierKeyword } from './opt-out-keywords.ts';

describe('carrier keywords (STOP, START, HELP)', () => {
  it('when a message is exactly an opt-out word in any case, with spaces or punctuation around it, then it is an opt-out', () => {
    for (const body of [
      'STOP',
      'stop',
      ' Stop. ',
      'STOPALL',
      'unsubscribe',
      'Cancel!',
      'END',
      'quit',
      'REVOKE',
      'optout',
    ])
      expect(carrierKeyword(body), body).toBe('opt-out');
  });

  it('when a message is START, YES or UNSTOP, then it is an opt-in; HELP or INFO, then help', () => {
    for (const body of ['START', 'yes', 'Unstop']) expect(carrierKeyword(body), body).toBe('opt-in');
    for (const body of ['HELP', 'help?', 'Info']) expect(carrierKeyword(body), body).toBe('help');
  });

  it('when a keyword is part of a longer message, then it is an ordinary message the bot answers', () => {
    for (const body of ['stop the order please', 'yes please', 'I need help', 'STOPPED', '', 'Ende'])
      expect(carrierKeyword(body), body).toBeNull();
  });
});
