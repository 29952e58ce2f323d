/**
 * Every sentence the studio shows, in English and German. Other screens add their keys to both
 * tables (a test checks the German table has every English key). What the server says in an
 * error body is for developers; people read these, chosen by the error's code.
 */
export const en = {
  appName: 'Studio',
  mainNavigation: 'Studio sections',
  navVersions: 'Versions',
  navDesigner: 'Designer',
  navInsights: 'Insights',
  navSettings: 'Settings',
  signedInAs: 'Signed in as {name} ({role})',
  signOut: 'Sign out',
  loading: 'Loading…',
  notHereYet: 'This part of the studio is not available yet.',
  notFoundPage: 'There is no page at this address.',
  roleOwner: 'Owner',
  roleEditor: 'Editor',
  roleAnalyst: 'Analyst',
  roleViewer: 'Viewer',

  signInTitle: 'Sign in to the studio',
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing in…',
  signInWithSso: 'Sign in with {label}',
  or: 'or',
  sessionEnded: 'Your session has ended. Sign in again.',

  setupTitle: 'Create your studio account',
  setupIntro: 'This one-time link creates an account with the role {role}.',
  setupResetIntro: 'This one-time link sets a new password for {email}.',
  name: 'Name',
  newPassword: 'New password',
  passwordHint: 'At least 12 characters. A few words in a row are easy to remember and hard to guess.',
  createAccount: 'Create account',
  setPassword: 'Set password',
  setupLinkMissing: 'This address has no setup token. Open the whole link you were given.',

  settingsTitle: 'Settings',
  settingsSections: 'Settings sections',
  tabAccounts: 'Accounts',
  tabTokens: 'API tokens',
  tabSecrets: 'Secrets',
  tabAudit: 'Audit trail',
  tabSessions: 'Sessions',
  tabPassword: 'Password',

  accountsTitle: 'Accounts',
  colName: 'Name',
  colEmail: 'Email',
  colRole: 'Role',
  colSignIn: 'Signs in with',
  colActions: 'Actions',
  signInPassword: 'password',
  signInSso: 'single sign-on',
  roleOf: 'Role of {name}',
  deleteAccount: 'Delete {email}',
  confirmDelete: 'Delete the account of {email}? Their sessions and API tokens end at once.',
  inviteTitle: 'Invite someone',
  invite: 'Create invitation link',
  invitationCreated: 'Send this one-time link to {email}. It is shown only now and works for 72 hours:',
  invitationLink: 'Invitation link',
  pendingInvitations: 'Pending invitations',
  cancelInvitation: 'Cancel the invitation of {email}',
  expires: 'expires {time}',
  saved: 'Saved.',

  tokensTitle: 'API tokens',
  tokensIntro: 'A token acts with your role, for `chatbot pull`/`push` and CI. Send it as Authorization: Bearer.',
  tokenName: 'Token name',
  tokenDays: 'Valid for days (empty: until revoked)',
  createToken: 'Create token',
  tokenCreated: 'Copy your new token now. It is shown only once:',
  newToken: 'New API token',
  colCreated: 'Created',
  colExpires: 'Expires',
  colLastUsed: 'Last used',
  never: 'never',
  revokeToken: 'Revoke {name}',
  noTokens: 'You have no API tokens.',

  secretsTitle: 'Secrets',
  secretsIntro: 'Credentials the bot definition names (such as tokenEnv). A value is never shown again. An environment variable of the same name wins over the studio.',
  colSecret: 'Secret',
  colStatus: 'Status',
  colUsedBy: 'Used by',
  colUpdated: 'Changed',
  statusEnv: 'from the environment (wins)',
  statusSet: 'set in the studio',
  statusUnset: 'not set',
  setSecretTitle: 'Set a secret',
  secretName: 'Secret name',
  secretValue: 'Value',
  setSecret: 'Save secret',
  deleteSecret: 'Delete {name}',
  secretSaved: 'Secret {name} saved; the bot uses it from now on.',
  noSecrets: 'The bot names no secrets.',

  auditTitle: 'Audit trail',
  colTime: 'Time',
  colWho: 'Who',
  colAction: 'Action',
  colTarget: 'Target',
  colIp: 'IP address',
  loadMore: 'Load more',
  noEntries: 'Nothing recorded yet.',

  sessionsTitle: 'Your sessions',
  colBrowser: 'Browser',
  colLastSeen: 'Last active',
  thisSession: 'this session',
  endSession: 'End session from {ip}',
  logoutEverywhere: 'Log out everywhere',
  passwordTitle: 'Change password',
  currentPassword: 'Current password',
  changePassword: 'Change password',
  passwordChanged: 'Password changed. Your other sessions have ended.',

  errorInvalidCredentials: 'The email or password is not right.',
  errorRateLimited: 'Too many attempts. Wait a minute, then try again.',
  errorForbidden: 'Your role does not allow this. Ask an owner if you need it.',
  errorCsrf: 'This page is out of date. Reload it and try again.',
  errorUnauthenticated: 'Your session has ended. Sign in again.',
  errorSetupLink: 'This setup link is not valid: it was used already or has expired. Ask an owner for a new one.',
  errorWeakPassword: 'Choose a longer password: at least 12 characters.',
  errorEmailTaken: 'An account with this email exists already.',
  errorLastOwner: 'The studio needs at least one owner. Make someone else an owner first.',
  errorNotFound: 'This was not found; it may have been removed meanwhile.',
  errorInvalidInput: 'Some of what you entered is not valid. Check the fields and try again.',
  errorNetwork: 'The server cannot be reached. Check your connection and try again.',
  errorUnknown: 'Something went wrong on the server. Quote {requestId} when reporting it.',
  errorGeneric: 'Something went wrong. Try again.',
};

export type StudioStrings = typeof en;
export type StringKey = keyof StudioStrings;

export const de: StudioStrings = {
  appName: 'Studio',
  mainNavigation: 'Bereiche des Studios',
  navVersions: 'Versionen',
  navDesigner: 'Designer',
  navInsights: 'Auswertungen',
  navSettings: 'Einstellungen',
  signedInAs: 'Angemeldet als {name} ({role})',
  signOut: 'Abmelden',
  loading: 'Wird geladen …',
  notHereYet: 'Dieser Teil des Studios ist noch nicht verfügbar.',
  notFoundPage: 'Unter dieser Adresse gibt es keine Seite.',
  roleOwner: 'Inhaber',
  roleEditor: 'Bearbeiter',
  roleAnalyst: 'Analyst',
  roleViewer: 'Betrachter',

  signInTitle: 'Im Studio anmelden',
  email: 'E-Mail',
  password: 'Passwort',
  signIn: 'Anmelden',
  signingIn: 'Anmeldung läuft …',
  signInWithSso: 'Mit {label} anmelden',
  or: 'oder',
  sessionEnded: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',

  setupTitle: 'Ihr Studio-Konto anlegen',
  setupIntro: 'Dieser einmalige Link legt ein Konto mit der Rolle {role} an.',
  setupResetIntro: 'Dieser einmalige Link setzt ein neues Passwort für {email}.',
  name: 'Name',
  newPassword: 'Neues Passwort',
  passwordHint: 'Mindestens 12 Zeichen. Einige Wörter hintereinander sind leicht zu merken und schwer zu erraten.',
  createAccount: 'Konto anlegen',
  setPassword: 'Passwort setzen',
  setupLinkMissing: 'Dieser Adresse fehlt das Einrichtungs-Token. Öffnen Sie den vollständigen Link.',

  settingsTitle: 'Einstellungen',
  settingsSections: 'Bereiche der Einstellungen',
  tabAccounts: 'Konten',
  tabTokens: 'API-Tokens',
  tabSecrets: 'Geheimnisse',
  tabAudit: 'Prüfprotokoll',
  tabSessions: 'Sitzungen',
  tabPassword: 'Passwort',

  accountsTitle: 'Konten',
  colName: 'Name',
  colEmail: 'E-Mail',
  colRole: 'Rolle',
  colSignIn: 'Anmeldung mit',
  colActions: 'Aktionen',
  signInPassword: 'Passwort',
  signInSso: 'Single Sign-on',
  roleOf: 'Rolle von {name}',
  deleteAccount: '{email} löschen',
  confirmDelete: 'Das Konto von {email} löschen? Sitzungen und API-Tokens enden sofort.',
  inviteTitle: 'Jemanden einladen',
  invite: 'Einladungslink erstellen',
  invitationCreated: 'Senden Sie diesen einmaligen Link an {email}. Er wird nur jetzt angezeigt und gilt 72 Stunden:',
  invitationLink: 'Einladungslink',
  pendingInvitations: 'Offene Einladungen',
  cancelInvitation: 'Einladung von {email} zurückziehen',
  expires: 'läuft ab {time}',
  saved: 'Gespeichert.',

  tokensTitle: 'API-Tokens',
  tokensIntro: 'Ein Token handelt mit Ihrer Rolle, für `chatbot pull`/`push` und CI. Senden Sie es als Authorization: Bearer.',
  tokenName: 'Name des Tokens',
  tokenDays: 'Gültig für Tage (leer: bis zum Widerruf)',
  createToken: 'Token erstellen',
  tokenCreated: 'Kopieren Sie Ihr neues Token jetzt. Es wird nur einmal angezeigt:',
  newToken: 'Neues API-Token',
  colCreated: 'Erstellt',
  colExpires: 'Läuft ab',
  colLastUsed: 'Zuletzt benutzt',
  never: 'nie',
  revokeToken: '{name} widerrufen',
  noTokens: 'Sie haben keine API-Tokens.',

  secretsTitle: 'Geheimnisse',
  secretsIntro: 'Zugangsdaten, die die Bot-Definition nennt (etwa tokenEnv). Ein Wert wird nie wieder angezeigt. Eine gleichnamige Umgebungsvariable hat Vorrang vor dem Studio.',
  colSecret: 'Geheimnis',
  colStatus: 'Status',
  colUsedBy: 'Verwendet von',
  colUpdated: 'Geändert',
  statusEnv: 'aus der Umgebung (hat Vorrang)',
  statusSet: 'im Studio gesetzt',
  statusUnset: 'nicht gesetzt',
  setSecretTitle: 'Geheimnis setzen',
  secretName: 'Name des Geheimnisses',
  secretValue: 'Wert',
  setSecret: 'Geheimnis speichern',
  deleteSecret: '{name} löschen',
  secretSaved: 'Geheimnis {name} gespeichert; der Bot verwendet es ab jetzt.',
  noSecrets: 'Der Bot nennt keine Geheimnisse.',

  auditTitle: 'Prüfprotokoll',
  colTime: 'Zeit',
  colWho: 'Wer',
  colAction: 'Aktion',
  colTarget: 'Ziel',
  colIp: 'IP-Adresse',
  loadMore: 'Mehr laden',
  noEntries: 'Noch nichts aufgezeichnet.',

  sessionsTitle: 'Ihre Sitzungen',
  colBrowser: 'Browser',
  colLastSeen: 'Zuletzt aktiv',
  thisSession: 'diese Sitzung',
  endSession: 'Sitzung von {ip} beenden',
  logoutEverywhere: 'Überall abmelden',
  passwordTitle: 'Passwort ändern',
  currentPassword: 'Aktuelles Passwort',
  changePassword: 'Passwort ändern',
  passwordChanged: 'Passwort geändert. Ihre anderen Sitzungen wurden beendet.',

  errorInvalidCredentials: 'E-Mail-Adresse oder Passwort stimmen nicht.',
  errorRateLimited: 'Zu viele Versuche. Warten Sie eine Minute und versuchen Sie es dann erneut.',
  errorForbidden: 'Ihre Rolle erlaubt das nicht. Fragen Sie einen Inhaber, falls Sie es brauchen.',
  errorCsrf: 'Diese Seite ist veraltet. Laden Sie sie neu und versuchen Sie es erneut.',
  errorUnauthenticated: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
  errorSetupLink: 'Dieser Einrichtungslink ist ungültig: Er wurde schon benutzt oder ist abgelaufen. Bitten Sie einen Inhaber um einen neuen.',
  errorWeakPassword: 'Wählen Sie ein längeres Passwort: mindestens 12 Zeichen.',
  errorEmailTaken: 'Es gibt schon ein Konto mit dieser E-Mail-Adresse.',
  errorLastOwner: 'Das Studio braucht mindestens einen Inhaber. Machen Sie zuerst jemand anderen zum Inhaber.',
  errorNotFound: 'Nicht gefunden; es wurde vielleicht inzwischen entfernt.',
  errorInvalidInput: 'Einige Eingaben sind ungültig. Prüfen Sie die Felder und versuchen Sie es erneut.',
  errorNetwork: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errorUnknown: 'Auf dem Server ist ein Fehler aufgetreten. Nennen Sie bei einer Meldung {requestId}.',
  errorGeneric: 'Etwas ist schiefgegangen. Versuchen Sie es erneut.',
};

const tables: Record<string, StudioStrings> = { en, de };

/** The studio's language: the browser's first supported one, English otherwise. */
export function pickLanguage(languages: readonly string[]): 'en' | 'de' {
  for (const tag of languages) {
    const language = tag.toLowerCase().split('-')[0];
    if (language === 'en' || language === 'de') return language;
  }
  return 'en';
}

let current: StudioStrings = en;
let currentLanguage = 'en';

export function setLanguage(language: 'en' | 'de'): void {
  current = tables[language] ?? en;
  currentLanguage = language;
}

export const language = (): string => currentLanguage;

/** The sentence for `key`, `{name}` placeholders filled in. */
export function t(key: StringKey, values: Readonly<Record<string, string | number>> = {}): string {
  return current[key].replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/** A role's name in the studio's language. */
export function roleName(role: string): string {
  const key = `role${role.charAt(0).toUpperCase()}${role.slice(1)}` as StringKey;
  return key in current ? t(key) : role;
}
