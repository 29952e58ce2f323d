import { HttpError } from '../../ports/http-error.ts';
import type { Account, Accounts, ApiToken } from '../../ports/accounts.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import { TOKEN_PREFIX, digest, newApiToken, newId } from './digests.ts';

export interface TokenView {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const view = (token: ApiToken): TokenView => ({
  id: token.id,
  name: token.name,
  createdAt: iso(token.createdAt)!,
  expiresAt: iso(token.expiresAt),
  lastUsedAt: iso(token.lastUsedAt),
});

/** At most this many tokens per account: enough for every CI job, few enough to review. */
export const MAX_TOKENS = 50;
/** A token's use is written at most this often, so a busy CI job costs few writes. */
const MARK_EVERY_MS = 60_000;

/**
 * API tokens: per account, shown once at creation, stored as a SHA-256 digest (a token is 256
 * random bits, so a slow hash adds nothing), revocable, and carrying the account's role as it
 * is at each request.
 */
export function apiTokens(deps: { accounts: Accounts; audit: AuditTrail; now: () => number }) {
  const { accounts, audit, now } = deps;
  return {
    async create(
      account: Account,
      input: { name: string; expiresInDays?: number },
      actor: AuditActor,
      ip: string,
    ): Promise<TokenView & { token: string }> {
      if ((await accounts.listTokens(account.id)).length >= MAX_TOKENS) {
        throw new HttpError(
          409,
          'too_many_tokens',
          `An account holds at most ${MAX_TOKENS} API tokens; revoke one you no longer use first.`,
        );
      }
      const token = newApiToken();
      const at = now();
      const stored: ApiToken = {
        id: newId(),
        accountId: account.id,
        name: input.name.trim(),
        tokenHash: digest(token),
        createdAt: at,
        expiresAt: input.expiresInDays === undefined ? null : at + input.expiresInDays * 86_400_000,
        lastUsedAt: null,
      };
      await accounts.saveToken(stored);
      await audit.record({
        actor,
        ip,
        action: 'token_created',
        target: stored.id,
        details: { name: stored.name, expiresAt: iso(stored.expiresAt) },
      });
      return { ...view(stored), token };
    },

    async list(account: Account): Promise<TokenView[]> {
      return (await accounts.listTokens(account.id)).map(view);
    },

    async revoke(account: Account, id: string, actor: AuditActor, ip: string): Promise<boolean> {
      const token = (await accounts.listTokens(account.id)).find((each) => each.id === id);
      if (!token || !(await accounts.deleteToken(account.id, id))) return false;
      await audit.record({ actor, ip, action: 'token_revoked', target: id, details: { name: token.name } });
      return true;
    },

    /** Ends every API token of the account (the "log out everywhere" of a lost laptop); each is audited as revoked. */
    async revokeAll(account: Account, actor: AuditActor, ip: string): Promise<number> {
      let ended = 0;
      for (const token of await accounts.listTokens(account.id)) {
        if (!(await accounts.deleteToken(account.id, token.id))) continue;
        await audit.record({
          actor,
          ip,
          action: 'token_revoked',
          target: token.id,
          details: { name: token.name, everywhere: true },
        });
        ended++;
      }
      return ended;
    },

    /** The account a bearer token stands for, or null when it is unknown, revoked or expired. */
    async authenticate(bearer: string): Promise<{ account: Account; token: ApiToken } | null> {
      if (!bearer.startsWith(TOKEN_PREFIX) || bearer.length > 100) return null;
      const token = await accounts.tokenByHash(digest(bearer));
      const at = now();
      if (!token || (token.expiresAt !== null && at >= token.expiresAt)) return null;
      const account = await accounts.accountById(token.accountId);
      if (!account) return null;
      if (token.lastUsedAt === null || at - token.lastUsedAt >= MARK_EVERY_MS)
        await accounts.markTokenUsed(token.id, at);
      return { account, token };
    },
  };
}

export type ApiTokens = ReturnType<typeof apiTokens>;
