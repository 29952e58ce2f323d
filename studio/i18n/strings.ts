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
