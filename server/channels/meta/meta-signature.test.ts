import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signMetaBody } from '../test/vendors/signatures/meta-signature.ts';
import { isValidMetaSignature } from './meta-signature.ts';

const appSecret = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('Meta webhook signatures (X-Hub-Signature-256)', () => {
  it('when Meta signs any body, then the check accepts exactly those bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        const raw = Buffer.from(bytes);
        expect(isValidMetaSignature(appSecret, raw, signMetaBody(appSecret, raw))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('when the test signer is compared with the published recipe, then both give sha256= and the hex HMAC', () => {
    const raw = '{"object":"whatsapp_business_account"}';
    expect(signMetaBody(appSecret, raw)).toBe(`sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`);
  });

  it('when the body is parsed and serialised again, then the signature no longer matches: the check must see the raw bytes', () => {
    const raw = Buffer.from('{ "entry": [ { "text": "caf\\u00e9 \\ud83d\\udc4b" } ] }');
    const header = signMetaBody(appSecret, raw);
    expect(isValidMetaSignature(appSecret, raw, header)).toBe(true);
    expect(isValidMetaSignature(appSecret, Buffer.from(JSON.stringify(JSON.parse(raw.toString()))), header)).toBe(
      false,
    );
  });

  it('when one byte of the body changes, then the check refuses it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 512 }), fc.nat(), (bytes, at) => {
        const raw = Buffer.from(bytes);
        const header = signMetaBody(appSecret, raw);
        const tampered = Buffer.from(raw);
        const index = at % tampered.length;
        tampered.writeUInt8(tampered.readUInt8(index) ^ 0x01, index);
        expect(isValidMetaSignature(appSecret, tampered, header)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('when the header is missing, malformed, uppercase-prefixed, sha1 or signed with another secret, then it is refused without an error', () => {
    const raw = Buffer.from('{}');
    const good = signMetaBody(appSecret, raw);
    for (const header of [
      undefined,
      '',
      'sha256=',
      good.slice(0, -2),
      `${good}00`,
      `sha1=${'0'.repeat(40)}`,
      good.replace('sha256=', 'SHA256:'),
      signMetaBody('another-secret', raw),
    ]) {
      expect(isValidMetaSignature(appSecret, raw, header)).toBe(false);
    }
  });
});
