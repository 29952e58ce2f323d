import { expect, it } from 'vitest';
import type { SecretStore } from '../../ports/secrets.ts';

export function studioSecretCases(secrets: () => SecretStore): void {
  it('when secrets are put, then they list by name with the last value, time and author, and a delete removes one', async () => {
    await secrets().putSecret({
      name: 'CRM_TOKEN',
      ciphertext: 'v1.k.a.b.c',
      updatedAt: 10,
      updatedBy: 'ana@example.com',
    });
    await secrets().putSecret({
      name: 'API_PASSWORD',
      ciphertext: 'v1.k.d.e.f',
      updatedAt: 11,
      updatedBy: 'ana@example.com',
    });
    await secrets().putSecret({
      name: 'CRM_TOKEN',
      ciphertext: 'v1.k.g.h.i',
      updatedAt: 12,
      updatedBy: 'bo@example.com',
    });
    expect(await secrets().listSecrets()).toEqual([
      { name: 'API_PASSWORD', ciphertext: 'v1.k.d.e.f', updatedAt: 11, updatedBy: 'ana@example.com' },
      { name: 'CRM_TOKEN', ciphertext: 'v1.k.g.h.i', updatedAt: 12, updatedBy: 'bo@example.com' },
    ]);
    expect(await secrets().deleteSecret('CRM_TOKEN')).toBe(true);
    expect(await secrets().deleteSecret('CRM_TOKEN')).toBe(false);
    expect((await secrets().listSecrets()).map((s) => s.name)).toEqual(['API_PASSWORD']);
  });
}
