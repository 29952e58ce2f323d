/**
 * Secrets set in the studio (integration passwords, tokens, client secrets), as stored: the
 * value encrypted by the secrets room (AES-256-GCM under SECRETS_KEY) before it reaches this
 * port, so the store never holds it in the clear.
 */
export interface StoredSecret {
  /** An environment-variable name the definition uses (`CRM_TOKEN`). */
  readonly name: string;
  /** The encrypted value in the room's own envelope format. */
  readonly ciphertext: string;
  /** Epoch milliseconds. */
  readonly updatedAt: number;
  /** The email of whoever set it last. */
  readonly updatedBy: string;
}

export interface SecretStore {
  listSecrets(): Promise<StoredSecret[]>;
  putSecret(secret: StoredSecret): Promise<void>;
  deleteSecret(name: string): Promise<boolean>;
}
