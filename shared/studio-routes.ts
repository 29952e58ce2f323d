/**
 * The studio's HTTP API under /studio/api, route by route: the method and path of each, named
 * by its OpenAPI operationId. The names are the keys of the one map of the contract
 * (`studio-api.ts` adds each route's schemas to this table): the server registers its routes by
 * these names, the OpenAPI document lists them, and the studio web app calls them by name. Plain
 * data, no zod, so the web app's bundle pays only for the table.
 */

export type StudioMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route of the studio's API: its method and its path below /studio/api (Express syntax, `:param`). */
export interface StudioRoute {
  readonly method: StudioMethod;
  readonly path: string;
}

/** The prefix every studio API path has. */
export const STUDIO_API_PREFIX = '/studio/api';

export const STUDIO_ROUTES = {
  // Open to anyone: sign-in, setup links and single sign-on.
  signInOptions: { method: 'GET', path: '/sign-in-options' },
  login: { method: 'POST', path: '/login' },
  checkSetupLink: { method: 'GET', path: '/setup' },
  completeSetup: { method: 'POST', path: '/setup' },
  ssoLogin: { method: 'GET', path: '/oidc/login' },
  ssoCallback: { method: 'GET', path: '/oidc/callback' },
  // The caller's own session, sessions, password and API tokens.
  session: { method: 'GET', path: '/session' },
  logout: { method: 'POST', path: '/logout' },
  logoutEverywhere: { method: 'POST', path: '/logout-everywhere' },
  listSessions: { method: 'GET', path: '/sessions' },
  endSession: { method: 'DELETE', path: '/sessions/:id' },
  changePassword: { method: 'POST', path: '/password' },
  listTokens: { method: 'GET', path: '/tokens' },
  createToken: { method: 'POST', path: '/tokens' },
  revokeToken: { method: 'DELETE', path: '/tokens/:id' },
  // Accounts and invitations (owners), secrets, the audit trail.
  listAccounts: { method: 'GET', path: '/accounts' },
  inviteAccount: { method: 'POST', path: '/accounts' },
  updateAccount: { method: 'PATCH', path: '/accounts/:id' },
  deleteAccount: { method: 'DELETE', path: '/accounts/:id' },
  cancelInvitation: { method: 'DELETE', path: '/invitations/:id' },
  listSecrets: { method: 'GET', path: '/secrets' },
  setSecret: { method: 'PUT', path: '/secrets/:name' },
  deleteSecret: { method: 'DELETE', path: '/secrets/:name' },
  readAudit: { method: 'GET', path: '/audit' },
  // Settings → Channels (owners): the vendors' connectors, their settings and a test message.
  listChannels: { method: 'GET', path: '/channels' },
  saveChannel: { method: 'PUT', path: '/channels/:connector' },
  testChannel: { method: 'POST', path: '/channels/:connector/test' },
  // Versions, drafts, checks and publishing.
  listVersions: { method: 'GET', path: '/versions' },
  saveVersion: { method: 'POST', path: '/versions' },
  readVersion: { method: 'GET', path: '/versions/:id' },
  exportVersion: { method: 'GET', path: '/versions/:id/export' },
  readDraft: { method: 'GET', path: '/draft' },
  autosaveDraft: { method: 'PUT', path: '/draft' },
  checkDefinition: { method: 'POST', path: '/check' },
  publishPlan: { method: 'POST', path: '/publish/plan' },
  publish: { method: 'POST', path: '/publish' },
  importVersion: { method: 'POST', path: '/import' },
  // The designer.
  designerCatalogue: { method: 'GET', path: '/designer/catalogue' },
  designerPresence: { method: 'POST', path: '/designer/presence' },
  previewChannels: { method: 'POST', path: '/preview/channels' },
  // Insights.
  insightsDashboard: { method: 'GET', path: '/insights/dashboard' },
  insightsDropOff: { method: 'GET', path: '/insights/drop-off' },
  searchConversations: { method: 'GET', path: '/insights/conversations' },
  readUserTranscript: { method: 'GET', path: '/insights/users/:userId' },
  eraseUserFromStudio: { method: 'DELETE', path: '/insights/users/:userId' },
  insightsMisses: { method: 'GET', path: '/insights/misses' },
  addMissesToDraft: { method: 'POST', path: '/insights/misses/add' },
  // The management API's exports, for a signed-in owner or analyst (served by its export router).
  downloadExportFromStudio: { method: 'GET', path: '/export/:name' },
} as const satisfies Record<string, StudioRoute>;

export type StudioRouteName = keyof typeof STUDIO_ROUTES;

/**
 * The methods each path of `names` is served with, in the table's order: what a 405 names in
 * its Allow header for another method on one of them.
 */
export function methodsByPath(names: readonly StudioRouteName[]): Record<string, string> {
  const methods: Record<string, string[]> = {};
  for (const name of names) {
    const { method, path } = STUDIO_ROUTES[name];
    (methods[path] ??= []).push(method);
  }
  return Object.fromEntries(Object.entries(methods).map(([path, list]) => [path, list.join(', ')]));
}
