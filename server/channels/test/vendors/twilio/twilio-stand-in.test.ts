import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { twilioFormBody, type TwilioParams } from '../signatures/twilio-signature.ts';
import { smsSegments } from './sms-segments.ts';
import { startTwilioStandIn, twilioValidator, type TwilioStandIn } from './twilio-stand-in.ts';

const accountSid = `AC${'1'.repeat(32)}`;
const authToken = 'test-auth-token';
const basic = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

let standIn: TwilioStandIn;
beforeEach(async () => {
  standIn = await startTwilioStandIn({ accountSid, authToken });
});
afterEach(async () => {
  await standIn.close();
});

async function create(
  params: TwilioParams,
  headers: Record<string, string> = {},
  path = `/2010-04-01/Accounts/${accountSid}/Messages.json`,
) {
  const response = await fetch(`${standIn.apiUrl}${path}`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: twilioFormBody(params),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function expectTwilioError(body: Record<string, unknown>, status: number, code: number) {
  expect(body).toEqual({
    code,
    message: expect.any(String),
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status,
  });
}

describe('the Twilio Messages stand-in', () => {
  it("when an SMS follows the reference, then it answers 201 with the reference's message resource and logs it", async () => {
    const answer = await create({ To: '+15558675310', From: '+15017122661', Body: 'Hello there' });
    expect(answer.status).toBe(201);
    expect(twilioValidator.check('/components/schemas/api.v2010.account.message', answer.body).problems).toEqual([]);
    expect(answer.body).toMatchObject({
      to: '+15558675310',
      from: '+15017122661',
      body: 'Hello there',
      status: 'queued',
      num_segments: '1',
      account_sid: accountSid,
    });
    expect(standIn.accepted()).toMatchObject([
      { sid: answer.body.sid, to: '+15558675310', body: 'Hello there', segments: 1 },
    ]);
  });

  it('when a WhatsApp message with two media URLs is sent, then both reach the log as a list', async () => {
    const answer = await create({
      To: 'whatsapp:+15558675310',
      From: 'whatsapp:+15017122661',
      Body: 'Look',
      MediaUrl: ['https://example.com/a.png', 'https://example.com/b.png'],
    });
    expect(answer.status).toBe(201);
    expect(standIn.accepted()[0]?.mediaUrls).toEqual(['https://example.com/a.png', 'https://example.com/b.png']);
  });

  it('when a long SMS is sent, then the answer counts its segments the way carriers split it', async () => {
    const gsm = await create({ To: '+15558675310', From: '+15017122661', Body: 'a'.repeat(161) });
    expect(gsm.body.num_segments).toBe('2');
    const unicode = await create({ To: '+15558675310', From: '+15017122661', Body: 'é👋'.repeat(30) });
    expect(unicode.body.num_segments).toBe(String(smsSegments('é👋'.repeat(30)).segments));
  });

  it('when To, a sender or any content is missing, then it answers 400 with the code Twilio gives', async () => {
    expectTwilioError((await create({ From: '+15017122661', Body: 'Hi' })).body, 400, 21604);
    expectTwilioError((await create({ To: '+15558675310', From: '+15017122661' })).body, 400, 21602);
    expectTwilioError((await create({ To: '+15558675310', Body: 'Hi' })).body, 400, 21603);
    expect(standIn.accepted()).toEqual([]);
  });

  it('when the body is over 1600 characters, then it is refused with 21617', async () => {
    const answer = await create({ To: '+15558675310', From: '+15017122661', Body: 'x'.repeat(1601) });
    expectTwilioError(answer.body, 400, 21617);
  });

  it('when a parameter is misspelt or To is not a phone number, then it is refused and the log says why', async () => {
    const misspelt = await create({ To: '+15558675310', From: '+15017122661', body: 'lower case' });
    expect(misspelt.status).toBe(400);
    expect(standIn.log.at(-1)?.problems).toContain('body is not a parameter of this operation');
    const badTo = await create({ To: 'call me maybe', From: '+15017122661', Body: 'Hi' });
    expectTwilioError(badTo.body, 400, 21211);
  });

  it('when an SMS sender writes to a WhatsApp address, then it is refused: both ends must be on one channel', async () => {
    expectTwilioError(
      (await create({ To: 'whatsapp:+15558675310', From: '+15017122661', Body: 'Hi' })).body,
      400,
      21910,
    );
  });

  it('when ContentVariables come without ContentSid or are not JSON, then they are refused', async () => {
    expectTwilioError(
      (
        await create({
          To: 'whatsapp:+15558675310',
          From: 'whatsapp:+15017122661',
          Body: 'Hi',
          ContentVariables: '{"1":"x"}',
        })
      ).body,
      400,
      21654,
    );
    expectTwilioError(
      (
        await create({
          To: 'whatsapp:+15558675310',
          From: 'whatsapp:+15017122661',
          ContentSid: `HX${'a'.repeat(32)}`,
          ContentVariables: '{1:',
        })
      ).body,
      400,
      21656,
    );
    expect(
      (
        await create({
          To: 'whatsapp:+15558675310',
          From: 'whatsapp:+15017122661',
          ContentSid: `HX${'a'.repeat(32)}`,
          ContentVariables: '{"1":"Ada"}',
        })
      ).status,
    ).toBe(201);
  });

  it('when the credentials are wrong or the body is JSON, then it refuses with 20003 or 400 and accepts nothing', async () => {
    const wrong = await create(
      { To: '+15558675310', From: '+15017122661', Body: 'Hi' },
      { authorization: `Basic ${Buffer.from(`${accountSid}:nope`).toString('base64')}` },
    );
    expectTwilioError(wrong.body, 401, 20003);
    const json = await fetch(`${standIn.apiUrl}/2010-04-01/Accounts/${accountSid}/Messages.json`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ To: '+15558675310', Body: 'Hi' }),
    });
    expect(json.status).toBe(400);
    const otherAccount = await create(
      { To: '+15558675310', From: '+15017122661', Body: 'Hi' },
      {},
      `/2010-04-01/Accounts/AC${'2'.repeat(32)}/Messages.json`,
    );
    expectTwilioError(otherAccount.body, 401, 20003);
    expect(standIn.accepted()).toEqual([]);
  });

  it('when told to rate-limit or that the user opted out, then the next valid sends meet 20429 and 21610', async () => {
    standIn.failNext('rate-limit');
    standIn.failNext('opted-out');
    expectTwilioError((await create({ To: '+15558675310', From: '+15017122661', Body: 'One' })).body, 429, 20429);
    expectTwilioError((await create({ To: '+15558675310', From: '+15017122661', Body: 'One' })).body, 400, 21610);
    expect((await create({ To: '+15558675310', From: '+15017122661', Body: 'One' })).status).toBe(201);
    expect(standIn.accepted()).toHaveLength(1);
  });

  it('when told the WhatsApp window has closed, then the send is accepted and a failed callback with 63016 is owed', async () => {
    standIn.failNext('outside-window');
    const answer = await create({
      To: 'whatsapp:+15558675310',
      From: 'whatsapp:+15017122661',
      Body: 'Late',
      StatusCallback: 'https://bot.example.com/channels/twilio/status',
    });
    expect(answer.status).toBe(201);
    expect(standIn.owedStatusCallbacks()).toEqual([
      {
        url: 'https://bot.example.com/channels/twilio/status',
        params: expect.objectContaining({ MessageSid: answer.body.sid, MessageStatus: 'failed', ErrorCode: '63016' }),
      },
    ]);
    await create({
      To: '+15558675310',
      From: '+15017122661',
      Body: 'On time',
      StatusCallback: 'https://bot.example.com/channels/twilio/status',
    });
    expect(standIn.owedStatusCallbacks().map((callback) => callback.params.MessageStatus)).toEqual([
      'sent',
      'delivered',
    ]);
  });
});

describe('SMS segments', () => {
  it('when a body has only GSM-7 characters, then 160 fit one segment and extension characters count twice', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2 });
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'GSM-7', segments: 2 });
  });

  it('when a body has an emoji, then it goes as UCS-2: 70 units in one segment, 67 per part after', () => {
    expect(smsSegments('a'.repeat(68) + '👋')).toEqual({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('a'.repeat(69) + '👋')).toEqual({ encoding: 'UCS-2', segments: 2 });
    expect(smsSegments('a'.repeat(134))).toEqual({ encoding: 'GSM-7', segments: 1 });
    expect(smsSegments('ü'.repeat(134) + 'ж')).toEqual({ encoding: 'UCS-2', segments: 3 });
  });
});
