import { STUDIO_ROLES } from '../../shared/studio-people.ts';

/**
 * The studio's roles, from most to least able. Every studio route names the least role it
 * needs, and the server checks it on every request (README's table says what each may do).
 */
export const ROLES = STUDIO_ROLES;
export type Role = (typeof ROLES)[number];

/**
 * What each role may do. Not a ladder: an analyst reads personal data (conversations, exports)
 * that an editor does not, and an editor changes the bot, which an analyst may not.
 */
export const PERMISSIONS = {
  /** Versions, the published definition, diffs, problems, the step-type catalogue. */
  readBot: ['owner', 'editor', 'analyst', 'viewer'],
  /** Own draft, saving versions, importing a file, preview. */
  editBot: ['owner', 'editor'],
  publish: ['owner', 'editor'],
  /** Conversations, transcripts, insights, exports: personal data. */
  readConversations: ['owner', 'analyst'],
  /**
   * What the bot did not understand, grouped, without who wrote it (studio Insights → Misses):
   * editors too, as they are the ones who teach the bot from it.
   */
  readMisses: ['owner', 'editor', 'analyst'],
  /** Secret names and whether each is set (never a value). */
  listSecrets: ['owner', 'editor'],
  manageSecrets: ['owner'],
  /** Settings → Channels: the connectors' credentials and test messages. */
  manageChannels: ['owner'],
  manageAccounts: ['owner'],
  readAudit: ['owner'],
  eraseUsers: ['owner'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof PERMISSIONS;

export function may(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}
