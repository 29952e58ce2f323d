import { roleName, t, type StringKey } from '../../i18n/strings.ts';

/** An audit entry as GET /studio/api/audit answers it. */
export interface AuditEntry {
  readonly id: string;
  readonly timestamp: string;
  readonly actor: { readonly kind: string; readonly accountId?: string; readonly email?: string };
  readonly ip?: string;
  readonly action: string;
  readonly target?: string;
  readonly details?: Record<string, unknown>;
}

/** People by account id (from the accounts list), so the trail names them instead of their ids. */
export type PeopleById = ReadonlyMap<string, { readonly name: string; readonly email: string }>;

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Who did it, in words: the person's name (else email), "the bot file", "the server"… */
export function actorWords(actor: AuditEntry['actor'], people: PeopleById): string {
  if (actor.kind === 'file') return t('auditFile');
  if (actor.kind === 'system') return t('auditSystem');
  if (actor.kind === 'key') return t('auditKey');
  const person = actor.accountId ? people.get(actor.accountId) : undefined;
  const who = person?.name ?? actor.email ?? t('auditSomeone');
  return actor.kind === 'token' ? t('auditViaToken', { who }) : who;
}

/** One entry as a sentence in the studio's language; an action the studio has no words for is named as stored. */
export function auditSentence(entry: AuditEntry, people: PeopleById): string {
  const details = entry.details ?? {};
  const who = actorWords(entry.actor, people);
  const person = entry.target ? people.get(entry.target) : undefined;
  const target = person?.name ?? (text(details.email) || text(entry.target));
  const values: Record<string, string | number> = {
    who,
    target,
    role: details.role ? roleName(text(details.role)) : '',
    from: details.from ? roleName(text(details.from)) : '',
    to: details.to ? roleName(text(details.to)) : '',
    name: text(details.name),
    message: text(details.message),
    n: text(details.sessions ?? details.added) || 0,
    // A channel change names its settings (never their values).
    settings: [details.set, details.removed]
      .flatMap((names) => (Array.isArray(names) ? names.map(text) : []))
      .join(', '),
  };
  if (entry.action === 'session_revoked' && details.everywhere === true)
    return sentence(t('audit_session_revoked_everywhere', values));
  if (entry.action === 'login_failed' && !entry.actor.accountId && entry.actor.email === undefined)
    values.who = t('auditSomeone');
  // Secrets and versions are named by their own names (the target), never by a person.
  if (NAMED_BY_TARGET.includes(entry.action)) values.target = text(entry.target);
  return sentence(
    WORDED.has(entry.action)
      ? t(`audit_${entry.action}` as StringKey, values)
      : t('auditOther', { who, action: entry.action.replace(/_/g, ' ') }),
  );
}

/** A sentence starts with a capital, also when it starts with "the bot file". */
const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The actions whose sentence names what they changed (a secret, a channel, a version) by its own name. */
const NAMED_BY_TARGET = [
  'secret_set',
  'secret_deleted',
  'channel_settings_changed',
  'channel_test_sent',
  'version_saved',
  'version_imported',
  'published',
  'rolled_back',
  'draft_utterances_added',
  'draft_faq_questions_added',
  'setup_link_cancelled',
];

/** The actions the trail has sentences for (audit-strings.ts): those above and those about people. */
const WORDED: ReadonlySet<string> = new Set([
  ...NAMED_BY_TARGET,
  'login',
  'login_failed',
  'logout',
  'session_revoked',
  'password_changed',
  'account_created',
  'account_updated',
  'account_deleted',
  'role_changed',
  'token_created',
  'token_revoked',
  'setup_link_created',
  'user_erased',
]);
