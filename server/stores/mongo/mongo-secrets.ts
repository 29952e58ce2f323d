import type { Db } from 'mongodb';
import type { SecretStore, StoredSecret } from '../../ports/secrets.ts';

const COLLECTION = 'studio_secrets';

type SecretDoc = Omit<StoredSecret, 'name'> & { _id: string };

/** Studio secrets on MongoDB, already encrypted by the secrets room; the name is the _id. */
export function mongoSecrets(db: Db): SecretStore {
  const secrets = db.collection<SecretDoc>(COLLECTION);
  return {
    async listSecrets() {
      return (await secrets.find({}).sort({ _id: 1 }).toArray()).map(({ _id, ...rest }) => ({ name: _id, ...rest }));
    },
    async putSecret(secret) {
      const { name, ...rest } = secret;
      await secrets.replaceOne({ _id: name }, rest, { upsert: true });
    },
    async deleteSecret(name) {
      return (await secrets.deleteOne({ _id: name })).deletedCount === 1;
    },
  };
}
