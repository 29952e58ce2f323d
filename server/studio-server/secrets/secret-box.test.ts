import { describe, expect, it } from 'vitest';
import { SecretKeyError, seal, secretKeys, unseal } from './secret-box.ts';

const A = 'first-secrets-key-0123456789abcdefghij';
const B = 'second-secrets-key-0123456789abcdefghij';

describe('sealing studio secrets', () => {
  it('when a value is sealed and opened with the same key, then it comes back, and two seals of it differ', () => {
    const keys = secretKeys(A);
    const one = seal(keys, 'CRM_TOKEN', 'tøken with ünïcode');
    expect(unseal(keys, 'CRM_TOKEN', one)).toEqual({ value: 'tøken with ünïcode', stale: false });
    expect(seal(keys, 'CRM_TOKEN', 'tøken with ünïcode')).not.toBe(one);
    expect(one).not.toContain('tøken');
  });

  it('when the key was rotated, then a value sealed under the previous key opens and is marked stale', () => {
    const sealed = seal(secretKeys(A), 'CRM_TOKEN', 'value');
    expect(unseal(secretKeys(B, A), 'CRM_TOKEN', sealed)).toEqual({ value: 'value', stale: true });
  });

  it('when neither key sealed it, then opening fails naming SECRETS_KEY_PREVIOUS and not the value', () => {
    const sealed = seal(secretKeys(A), 'CRM_TOKEN', 'value');
    expect(() => unseal(secretKeys(B), 'CRM_TOKEN', sealed)).toThrow(SecretKeyError);
    expect(() => unseal(secretKeys(B), 'CRM_TOKEN', sealed)).toThrow(/SECRETS_KEY_PREVIOUS/);
  });

  it('when an envelope is altered or moved to another name, then it does not open', () => {
    const keys = secretKeys(A);
    const sealed = seal(keys, 'CRM_TOKEN', 'value');
    expect(() => unseal(keys, 'OTHER_TOKEN', sealed)).toThrow(/does not open/);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('vAlue').toString('base64url');
    expect(() => unseal(keys, 'CRM_TOKEN', parts.join('.'))).toThrow(/does not open/);
    expect(() => unseal(keys, 'CRM_TOKEN', 'plain text')).toThrow(/format/);
  });
});
