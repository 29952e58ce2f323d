import type { Accounts } from '../../ports/accounts.ts';

/** The parts of the accounts port, each over a table (collection) of its own; an adapter's accounts store is the three. */
export type SetupLinks = Pick<
  Accounts,
  'saveSetupLink' | 'findSetupLink' | 'takeSetupLink' | 'listSetupLinks' | 'deleteSetupLink'
>;
export type ApiTokens = Pick<Accounts, 'saveToken' | 'tokenByHash' | 'listTokens' | 'deleteToken' | 'markTokenUsed'>;
export type AccountRecords = Omit<Accounts, keyof SetupLinks | keyof ApiTokens>;
