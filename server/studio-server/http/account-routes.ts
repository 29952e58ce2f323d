import { Router } from 'express';
import { HttpError } from '../../ports/http-error.ts';
import type { AccountAdmin } from '../accounts/account-admin.ts';
import { setupUrl, type SetupLinks } from '../accounts/setup-links.ts';
import { callerOf, requireRole } from './studio-api.ts';
import { serveRoute } from './studio-route.ts';

/** Accounts, roles and invitations: owners only. */
export function accountRoutes(deps: { admin: AccountAdmin; setup: SetupLinks; baseUrl: () => string }): Router {
  const router = Router();
  const owner = { guard: requireRole('manageAccounts') };

  serveRoute(router, 'listAccounts', owner, async () => ({
    accounts: await deps.admin.list(),
    invitations: await deps.setup.pending(),
  }));

  // An invitation: a one-time setup link for a named person and role, shown to the owner once to pass on.
  serveRoute(router, 'inviteAccount', owner, async ({ body }, req) => {
    const caller = callerOf(req);
    const { token, link } = await deps.setup.create({
      role: body.role,
      email: body.email,
      createdBy: caller.account,
      actor: caller.actor,
      ip: caller.ip,
      purpose: 'invitation',
    });
    return {
      email: link.email,
      role: link.role,
      link: setupUrl(deps.baseUrl(), token),
      expiresAt: new Date(link.expiresAt).toISOString(),
    };
  });

  serveRoute(router, 'updateAccount', owner, async ({ params, body }, req) => {
    const caller = callerOf(req);
    return deps.admin.update(params.id, body, caller.actor, caller.ip);
  });

  serveRoute(router, 'deleteAccount', owner, async ({ params }, req) => {
    const caller = callerOf(req);
    if (params.id === caller.account.id)
      throw new HttpError(
        409,
        'own_account',
        'You cannot delete the account you are signed in with; another owner can.',
      );
    await deps.admin.remove(params.id, caller.actor, caller.ip);
  });

  serveRoute(router, 'cancelInvitation', owner, async ({ params }, req) => {
    const caller = callerOf(req);
    if (!(await deps.setup.cancel(params.id, caller.actor, caller.ip)))
      throw new HttpError(
        404,
        'not_found',
        'There is no pending invitation with this id; it may have been used or expired.',
      );
  });
  return router;
}
