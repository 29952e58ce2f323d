import type { PersonalDataStore } from '../../ports/personal-data.ts';
import type { Store } from '../../ports/store.ts';

/** The parts of the personal data port: what removes it (erasure, retention) and what exports it (with the store's export of users). */
export type PersonalDataRemoval = Pick<PersonalDataStore, 'eraseUser' | 'purgeOlderThan'>;
export type PersonalDataExports = Pick<PersonalDataStore, 'exportKnownUsers' | 'exportTranscript'> &
  Pick<Store, 'exportUsers'>;
