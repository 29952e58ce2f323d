import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReferenceValidator } from '../reference-validator.ts';
import reference from './whatsapp-cloud-messages.reference.json' with { type: 'json' };
import { startWhatsAppCloudStandIn, type WhatsAppCloudStandIn } from './whatsapp-cloud-stand-in.ts';
import { statusUpdates } from './whatsapp-webhooks.ts';

const accessToken = 'EAAtest-access-token';
const phoneNumberId = '106540352242922';
const validator = new ReferenceValidator(reference as unknown as Record<string, unknown>);
const requestExamples =
  reference.paths['/{Version}/{Phone-Number-ID}/messages'].post.requestBody.content['application/json'].examples;

let standIn: WhatsAppCloudStandIn;
beforeEach(async () => {
  standIn = await startWhatsAppCloudStandIn({ accessToken, phoneNumberId });
});
afterEach(async () => {
  await standIn.close();
});

async function send(body: unknown, headers: Record<string, string> = {}, path = `/v23.0/${phoneNumberId}/messages`) {
  const response = await fetch(`${standIn.graphUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${accessToken}`,
      'content-type': 'application/json',
      'user-agent': 'chatbot/0.1.0',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const text = (to: string, body: string) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  type: 'text',
  text: { body },
});
const buttons = (titles: string[]) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to: '16505551234',
  type: 'interactive',
  interactive: {
    type: 'button',
    body: { text: 'Pick a plan' },
    action: { buttons: titles.map((title, index) => ({ type: 'reply', reply: { id: `choice-${index}`, title } })) },
  },
});

function expectGraphError(body: Record<string, unknown>, code: number) {
  expect(validator.check('/components/schemas/GraphAPIError', body).problems).toEqual([]);
  expect((body.error as { code: number }).code).toBe(code);
}

describe('the WhatsApp Cloud API stand-in', () => {
  it("when a text message follows the reference, then it answers with the reference's response shape and logs the message", async () => {
    const answer = await send(text('16505551234', 'Hello 👋'));
    expect(answer.status).toBe(200);
    expect(validator.check('/components/schemas/MessageResponsePayload', answer.body).problems).toEqual([]);
    const id = (answer.body.messages as { id: string }[])[0]?.id;
    expect(standIn.accepted()).toEqual([
      { id, to: '16505551234', type: 'text', body: text('16505551234', 'Hello 👋') },
    ]);
  });

  it("when the reference's own examples of the kinds a connector sends are posted, then each is accepted", async () => {
    for (const name of [
      'Send Text Message',
      'Send Reply Button',
      'Send List Message',
      'Send Image Message by ID',
    ] as const) {
      expect((await send(requestExamples[name].value)).status, name).toBe(200);
    }
  });

  it('when a reply button title is 21 characters or there are four buttons, then it is refused with Graph error 100 naming the field', async () => {
    const longTitle = await send(buttons(['Basic', 'a'.repeat(21)]));
    expect(longTitle.status).toBe(400);
    expectGraphError(longTitle.body, 100);
    expect(JSON.stringify(longTitle.body)).toContain(
      '/interactive/action/buttons/1/reply/title must NOT have more than 20 characters',
    );

    const four = await send(buttons(['One', 'Two', 'Three', 'Four']));
    expect(four.status).toBe(400);
    expect(JSON.stringify(four.body)).toContain('must NOT have more than 3 items');
    expect(standIn.accepted()).toEqual([]);
  });

  it('when two reply buttons share a title, then it is refused: the reference says titles must be unique', async () => {
    const answer = await send(buttons(['Yes', 'Yes']));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('reply button titles must be unique');
  });

  it('when a list has eleven rows across two sections, then it is refused', async () => {
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => ({ id: `row-${from + index}`, title: `Row ${from + index}` }));
    const list = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '16505551234',
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Choose' },
        action: {
          button: 'Options',
          sections: [
            { title: 'A', rows: rows(0, 6) },
            { title: 'B', rows: rows(6, 5) },
          ],
        },
      },
    };
    const answer = await send(list);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('at most 10 rows across its sections (this one has 11)');
  });

  it('when the body has a field the reference does not know, then it is refused', async () => {
    const answer = await send({ ...text('16505551234', 'Hi'), colour: 'blue' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('unevaluated properties (colour)');
  });

  it("when the bearer token is wrong or missing, then it answers 401 with the reference's error and accepts nothing", async () => {
    const wrong = await send(text('16505551234', 'Hi'), { authorization: 'Bearer someone-else' });
    expect(wrong.status).toBe(401);
    expectGraphError(wrong.body, 190);
    const missing = await fetch(`${standIn.graphUrl}/v23.0/${phoneNumberId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(text('1', 'Hi')),
    });
    expect(missing.status).toBe(401);
    expect(standIn.accepted()).toEqual([]);
  });

  it('when the path names another phone number id or the body is not JSON, then it is refused with a Graph error', async () => {
    const otherNumber = await send(text('16505551234', 'Hi'), {}, '/v23.0/999/messages');
    expect(otherNumber.status).toBe(400);
    expectGraphError(otherNumber.body, 100);
    const notJson = await send('{"to":');
    expect(notJson.status).toBe(400);
    expectGraphError(notJson.body, 100);
  });

  it("when the User-Agent does not have the reference's product/version form, then it is refused", async () => {
    const answer = await send(text('16505551234', 'Hi'), { 'user-agent': 'node' });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('the User-Agent header');
  });

  it('when told to rate-limit, then the next valid send meets 429 with a transient Graph error and the one after succeeds', async () => {
    standIn.failNext('rate-limit');
    const limited = await send(text('16505551234', 'One'));
    expect(limited.status).toBe(429);
    expectGraphError(limited.body, 4);
    expect((limited.body.error as { is_transient: boolean }).is_transient).toBe(true);
    expect((await send(text('16505551234', 'One'))).status).toBe(200);
    expect(standIn.accepted().map((message) => message.body.text)).toEqual([{ body: 'One' }]);
  });

  it('when told the user is undeliverable, then the send is refused with a permanent Graph error 131026', async () => {
    standIn.failNext('undeliverable');
    const answer = await send(text('16505551234', 'Hi'));
    expect(answer.status).toBe(400);
    expectGraphError(answer.body, 131026);
    expect((answer.body.error as { is_transient: boolean }).is_transient).toBe(false);
  });

  it('when told the window has closed, then the send is accepted and a failed status with code 131047 is owed to the webhook', async () => {
    standIn.failNext('outside-window');
    const answer = await send(text('16505551234', 'Late'));
    expect(answer.status).toBe(200);
    const owed = standIn.statusWebhooks();
    expect(owed).toMatchObject([
      { id: (answer.body.messages as { id: string }[])[0]?.id, status: 'failed', errors: [{ code: 131047 }] },
    ]);
    const payload = statusUpdates(
      { wabaId: '419561257915477', phoneNumberId, displayPhoneNumber: '15550783881' },
      owed,
    );
    expect(
      validator.check('/components/schemas/StatusMessageValue', payload.entry[0]?.changes[0]?.value).problems,
    ).toEqual([]);
    expect(standIn.statusWebhooks()).toEqual([]);
  });
});
