/** The Bot Framework's public addresses: the defaults of the BOTFRAMEWORK_* settings (a stand-in replaces them in tests). */

/** Where the Bot Framework publishes its OpenID configuration (and through it, the keys its requests are signed with). */
export const BOT_FRAMEWORK_OPENID_URL = 'https://login.botframework.com/v1/.well-known/openidconfiguration';

/** The token service for a multi-tenant bot; a single-tenant bot's names its tenant instead of botframework.com. */
export const BOT_FRAMEWORK_TOKEN_URL = 'https://login.microsoftonline.com/botframework.com/oauth2/v2.0/token';

/**
 * The Connector service's origins as Azure Bot Service publishes them: Teams (public cloud, GCC,
 * GCC High, DoD) and the Bot Framework's own channels (Web Chat, Direct Line, the Azure portal's test).
 */
export const DEFAULT_SERVICE_URLS = [
  'https://smba.trafficmanager.net',
  'https://*.botframework.com',
  'https://smba.infra.gcc.teams.microsoft.com',
  'https://smba.infra.gov.teams.microsoft.us',
  'https://smba.infra.dod.teams.microsoft.us',
] as const;
