import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, storeLegs } from '../../test/start-test-server.ts';
import { setUpOwner } from './studio-client.ts';

const KEY_A = 'rotation-key-a-0123456789abcdefghijklmn';
const KEY_B = 'rotation-key-b-0123456789abcdefghijklmn';
const KEY_C = 'rotation-key-c-0123456789abcdefghijklmn';

for (const leg of storeLegs()) {
  describe.skipIf(leg.skip)(`rotating SECRETS_KEY (${leg.name})`, () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    });

    it('when SECRETS_KEY changes with SECRETS_KEY_PREVIOUS set to the old one, then secrets still open and are sealed again; without it, start-up stops naming the setting', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'secrets-rotation-'));
      dirs.push(dir);
      const env = leg.env();
      let server = await startTestServer({ ...env, SECRETS_KEY: KEY_A }, dir);
      const owner = await setUpOwner(server.url, server.studio.setupLink!);
      expect((await owner.put('/studio/api/secrets/CRM_TOKEN', { value: 'the-value-1' })).status).toBe(200);
      const sealedUnderA = (await server.studio.rooms.rooms.secrets.listSecrets())[0]!.ciphertext;
      await server.close();

      server = await startTestServer({ ...env, SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: KEY_A }, dir);
      expect(server.studio.rooms.secrets.value('CRM_TOKEN')).toBe('the-value-1');
      expect(server.logs.some((line) => line.event === 'secrets_resealed' && line.count === 1)).toBe(true);
      const sealedUnderB = (await server.studio.rooms.rooms.secrets.listSecrets())[0]!;
      expect(sealedUnderB.ciphertext).not.toBe(sealedUnderA);
      // Who set it last and when stay as they were: a rotation is not a change of the secret.
      expect(sealedUnderB.updatedBy).toBe('owner@example.com');
      await server.close();

      // The old key can now be dropped.
      server = await startTestServer({ ...env, SECRETS_KEY: KEY_B }, dir);
      expect(server.studio.rooms.secrets.value('CRM_TOKEN')).toBe('the-value-1');
      await server.close();

      await expect(startTestServer({ ...env, SECRETS_KEY: KEY_C }, dir)).rejects.toThrow(
        /CRM_TOKEN was sealed with a key that is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS/,
      );
    }, 60_000);
  });
}
