import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTwilioStandIn, type TwilioStandIn } from '../channels/test/vendors/twilio/twilio-stand-in.ts';
import { createHttpSmsSender } from './http-sms-sender.ts';

const accountSid = `AC${'3'.repeat(32)}`;
const authToken = 'sms-sender-auth-token';

let twilio: TwilioStandIn;
beforeEach(async () => {
  twilio = await startTwilioStandIn({ accountSid, authToken });
});
afterEach(async () => {
  await twilio.close();
});

const sender = (password = authToken) =>
  createHttpSmsSender({
    url: `${twilio.apiUrl}/2010-04-01/Accounts/${accountSid}/Messages.json`,
    username: accountSid,
    password,
    from: '+15017122661',
  });

describe('the HTTP SMS sender against the Twilio stand-in', () => {
  it('when a code is texted, then Twilio accepts the request as its reference describes and the user receives the text', async () => {
    await sender().send({ to: '+15558675310', text: 'Your code is 123456' });
    expect(twilio.accepted()).toMatchObject([
      { to: '+15558675310', from: '+15017122661', body: 'Your code is 123456', segments: 1 },
    ]);
  });

  it('when Twilio refuses the credentials, then the error names the status and Twilio code but never the token', async () => {
    const failure: unknown = await sender('a-wrong-token')
      .send({ to: '+15558675310', text: 'Hi' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/answered 401: .*20003/);
    expect((failure as Error).message).not.toContain('a-wrong-token');
    expect(twilio.accepted()).toEqual([]);
  });

  it('when the recipient has opted out, then the send fails with 21610 so the caller can tell a person why', async () => {
    twilio.failNext('opted-out');
    await expect(sender().send({ to: '+15558675310', text: 'Hi' })).rejects.toThrow(/answered 400: .*21610/);
  });
});
