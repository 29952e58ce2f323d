import type { PersonalDataStore } from '../../ports/personal-data.ts';

/** The parts of the personal data port: what removes it (erasure, retention) and what exports it. */
export type PersonalDataRemoval = Pick<PersonalDataStore, 'eraseUser' | 'purgeOlderThan'>;
export type PersonalDataExports = Pick<PersonalDataStore, 'exportKnownUsers' | 'exportTranscript'>;
