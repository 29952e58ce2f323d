/**
 * The spec's log records (section 2), plus user-data snapshots, which share
 * their shape: who, when, and a flat record of fields.
 */
export const LOG_KINDS = [
  'userDataSnapshot',
  'nlpLog',
  'outgoingEmail',
  'outgoingSms',
  'fuzzyQuestionAnswerLog',
  'integrationLog',
  'urlTracker',
] as const;
export type LogKind = (typeof LOG_KINDS)[number];
