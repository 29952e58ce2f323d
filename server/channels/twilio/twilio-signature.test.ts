import fc from 'fast-check';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { signTwilioRequest } from '../test/vendors/signatures/twilio-signature.ts';
import { isValidTwilioSignature, type TwilioWebhookParams } from './twilio-signature.ts';

const authToken = '12345678901234567890123456789012';

// The official library, used here only as an oracle for the published algorithm.
const oracleSignature = (url: string, params: TwilioWebhookParams) =>
  twilio.getExpectedTwilioSignature(authToken, url, params as Record<string, string | string[]>);
const oracleAccepts = (signature: string, url: string, params: TwilioWebhookParams) =>
  twilio.validateRequest(authToken, signature, url, params as Record<string, string | string[]>);

const paramName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,14}$/);
const paramValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', '+15558675310', 'whatsapp:+15558675310', 'שלום', 'e\u0301', '👩‍👩‍👧'),
);
const params = fc.dictionary(paramName, fc.oneof(paramValue, fc.array(paramValue, { minLength: 1, maxLength: 3 })), {
  maxKeys: 12,
});
const publicUrl = fc
  .record({
    host: fc.constantFrom('bot.example.com', 'bot.example.com:443', 'support.example.org:8443'),
    path: fc.constantFrom('/channels/twilio/webhook', '/hooks/twilio', '/channels/twilio/webhook?bot=support&lang=en'),
  })
  .map(({ host, path }) => `https://${host}${path}`);

describe('Twilio webhook signatures', () => {
  it('when Twilio signs any URL and parameters, then our check, the test signer and the official library agree', () => {
    fc.assert(
      fc.property(publicUrl, params, (url, body) => {
        const signature = oracleSignature(url, body);
        expect(signTwilioRequest(authToken, url, body)).toBe(signature);
        expect(isValidTwilioSignature({ authToken, publicUrl: url, params: body, signature })).toBe(true);
        expect(oracleAccepts(signature, url, body)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('when one parameter is changed, added or dropped after signing, then both our check and the library refuse it', () => {
    fc.assert(
      fc.property(publicUrl, params, paramName, paramValue, (url, body, name, value) => {
        const signature = oracleSignature(url, body);
        // A list of one distinct value signs like that value alone, so "the same" covers both forms.
        const current = body[name];
        const same =
          typeof current === 'string'
            ? current === value
            : current !== undefined && new Set(current).size === 1 && current.includes(value);
        const tampered = { ...body, [name]: same ? `${value}x` : value };
        expect(isValidTwilioSignature({ authToken, publicUrl: url, params: tampered, signature })).toBe(false);
        expect(oracleAccepts(signature, url, tampered)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('when the request was signed over the public https URL but checked against the URL the server sees behind a proxy, then it is refused', () => {
    const body = { Body: 'Hello', From: '+15558675310', MessageSid: `SM${'a'.repeat(32)}` };
    const signature = oracleSignature('https://bot.example.com/channels/twilio/webhook', body);
    expect(
      isValidTwilioSignature({
        authToken,
        publicUrl: 'https://bot.example.com/channels/twilio/webhook',
        params: body,
        signature,
      }),
    ).toBe(true);
    expect(
      isValidTwilioSignature({
        authToken,
        publicUrl: 'http://10.0.0.5:3000/channels/twilio/webhook',
        params: body,
        signature,
      }),
    ).toBe(false);
  });

  it('when Twilio signed with the default port written out, then the check accepts it as the library does', () => {
    const body = { Body: 'Hello' };
    const signature = oracleSignature('https://bot.example.com:443/channels/twilio/webhook', body);
    expect(
      isValidTwilioSignature({
        authToken,
        publicUrl: 'https://bot.example.com/channels/twilio/webhook',
        params: body,
        signature,
      }),
    ).toBe(true);
    expect(oracleAccepts(signature, 'https://bot.example.com/channels/twilio/webhook', body)).toBe(true);
  });

  it('when the signature is missing, empty, of another length or made with another token, then it is refused without an error', () => {
    const url = 'https://bot.example.com/channels/twilio/webhook';
    const body = { Body: 'Hi' };
    for (const signature of [
      undefined,
      '',
      'short',
      `${oracleSignature(url, body)}=`,
      twilio.getExpectedTwilioSignature('another-token', url, body),
    ]) {
      expect(isValidTwilioSignature({ authToken, publicUrl: url, params: body, signature })).toBe(false);
    }
  });
});
