import { Router } from 'express';
import { z } from 'zod';
import { HttpError } from '../../ports/http-error.ts';
import { ROLES } from '../../ports/studio/roles.ts';
import type { AccountAdmin } from '../accounts/account-admin.ts';
import { setupUrl, type SetupLinks } from '../accounts/setup-links.ts';
import { readJson, parseInput } from './request-body.ts';
import { emailField, nameField } from './session-routes.ts';
import { callerOf, requireRole } from './studio-api.ts';

const roleField = z.enum(ROLES, { message: `a role is one of ${ROLES.join(', ')}` });
const idField = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an account id');
const inviteBody = z.strictObject({ email: emailField, role: roleField });
const changeBody = z
  .strictObject({ role: roleField.optional(), name: nameField.optional() })
  .refine((change) => change.role !== undefined || change.name !== undefined, 'give a role or a name to change');

/** Accounts, roles and invitations: owners only. */
export function accountRoutes(deps: { admin: AccountAdmin; setup: SetupLinks; baseUrl: () => string }): Router {
  const router = Router();
  const owner = requireRole('manageAccounts');

  router.get('/accounts', owner, async (_req, res) => {
    res.json({ accounts: await deps.admin.list(), invitations: await deps.setup.pending() });
  });

  // An invitation: a one-time setup link for a named person and role, shown to the owner once to pass on.
  router.post('/accounts', owner, async (req, res) => {
    const caller = callerOf(req);
    const input = await readJson(req, inviteBody);
    const { token, link } = await deps.setup.create({
      role: input.role,
      email: input.email,
      createdBy: caller.account,
      actor: caller.actor,
      ip: caller.ip,
      purpose: 'invitation',
    });
    res.status(201).json({
      email: link.email,
      role: link.role,
      link: setupUrl(deps.baseUrl(), token),
      expiresAt: new Date(link.expiresAt).toISOString(),
    });
  });

  router.patch('/accounts/:id', owner, async (req, res) => {
    const caller = callerOf(req);
    const id = parseInput(idField, req.params.id, 'path');
    const change = await readJson(req, changeBody);
    res.json(await deps.admin.update(id, change, caller.actor, caller.ip));
  });

  router.delete('/accounts/:id', owner, async (req, res) => {
    const caller = callerOf(req);
    const id = parseInput(idField, req.params.id, 'path');
    if (id === caller.account.id)
      throw new HttpError(
        409,
        'own_account',
        'You cannot delete the account you are signed in with; another owner can.',
      );
    await deps.admin.remove(id, caller.actor, caller.ip);
    res.status(204).end();
  });

  router.delete('/invitations/:id', owner, async (req, res) => {
    const caller = callerOf(req);
    const id = parseInput(z.string().regex(/^[0-9a-f]{24}$/, 'not an invitation id'), req.params.id, 'path');
    if (!(await deps.setup.cancel(id, caller.actor, caller.ip)))
      throw new HttpError(
        404,
        'not_found',
        'There is no pending invitation with this id; it may have been used or expired.',
      );
    res.status(204).end();
  });
  return router;
}
