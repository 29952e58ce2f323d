import type { Database } from './database.ts';
import type { SecretStore } from '../../ports/secrets.ts';

/** Studio secrets on the embedded store (migration 9), already encrypted by the secrets room. */
export function sqliteSecrets(db: Database): SecretStore {
  const all = db.prepare<[], { name: string; ciphertext: string; updated_at: number; updated_by: string }>(
    'SELECT * FROM studio_secrets ORDER BY name',
  );
  const put = db.prepare(
    `INSERT INTO studio_secrets (name, ciphertext, updated_at, updated_by) VALUES (@name, @ciphertext, @updatedAt, @updatedBy)
     ON CONFLICT (name) DO UPDATE SET ciphertext = excluded.ciphertext, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
  );
  const remove = db.prepare<[string]>('DELETE FROM studio_secrets WHERE name = ?');
  return {
    async listSecrets() {
      return all.all().map((row) => ({
        name: row.name,
        ciphertext: row.ciphertext,
        updatedAt: row.updated_at,
        updatedBy: row.updated_by,
      }));
    },
    async putSecret(secret) {
      put.run(secret);
    },
    async deleteSecret(name) {
      return remove.run(name).changes === 1;
    },
  };
}
