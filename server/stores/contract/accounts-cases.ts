import { expect, it } from 'vitest';
import type { Accounts, NewAccount } from '../../ports/accounts.ts';

const person = (id: string, email: string, role: NewAccount['role'] = 'editor', createdAt = 1000): NewAccount => ({
  id,
  email,
  name: `Name of ${id}`,
  role,
  passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${id}`,
  createdAt,
});

export function studioAccountCases(accounts: () => Accounts): void {
  it('when an account is created, then it is found by id and by email in any case, with what was given', async () => {
    const created = await accounts().createAccount(person('a1', 'Ana@Example.com', 'owner'));
    expect(created).toEqual({
      ok: true,
      account: {
        id: 'a1',
        email: 'ana@example.com',
        name: 'Name of a1',
        role: 'owner',
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$a1',
        oidcSubject: null,
        createdAt: 1000,
        updatedAt: 1000,
      },
    });
    expect(await accounts().accountById('a1')).toEqual(created.ok && created.account);
    expect((await accounts().accountByEmail('ANA@example.COM'))?.id).toBe('a1');
    expect(await accounts().accountById('nobody')).toBeNull();
    expect(await accounts().accountByEmail('nobody@example.com')).toBeNull();
  });

  it('when a second account takes an email already used (in another case), then it is refused and the first stays as it was', async () => {
    await accounts().createAccount(person('a1', 'ana@example.com', 'owner'));
    expect(await accounts().createAccount(person('a2', 'ANA@example.com', 'viewer'))).toEqual({
      ok: false,
      reason: 'email_taken',
    });
    expect(await accounts().accountById('a2')).toBeNull();
    expect((await accounts().accountByEmail('ana@example.com'))?.role).toBe('owner');
  });

  it('when accounts are listed and counted, then they come oldest first and count by role', async () => {
    await accounts().createAccount(person('b', 'b@example.com', 'viewer', 2000));
    await accounts().createAccount(person('a', 'a@example.com', 'owner', 1000));
    await accounts().createAccount(person('c', 'c@example.com', 'owner', 3000));
    expect((await accounts().listAccounts()).map((account) => account.id)).toEqual(['a', 'b', 'c']);
    expect(await accounts().countAccounts()).toBe(3);
    expect(await accounts().countAccounts('owner')).toBe(2);
    expect(await accounts().countAccounts('analyst')).toBe(0);
  });

  it('when an account is changed, then only the fields named change, and a missing account answers null', async () => {
    await accounts().createAccount(person('a1', 'ana@example.com'));
    const changed = await accounts().updateAccount('a1', { role: 'analyst', updatedAt: 5000 });
    expect(changed).toMatchObject({
      role: 'analyst',
      name: 'Name of a1',
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$a1',
      updatedAt: 5000,
      createdAt: 1000,
    });
    const renamed = await accounts().updateAccount('a1', {
      name: 'Ana',
      passwordHash: null,
      oidcSubject: 'https://idp.example sub-1',
      updatedAt: 6000,
    });
    expect(renamed).toMatchObject({
      role: 'analyst',
      name: 'Ana',
      passwordHash: null,
      oidcSubject: 'https://idp.example sub-1',
    });
    expect((await accounts().accountByOidcSubject('https://idp.example sub-1'))?.id).toBe('a1');
    expect(await accounts().updateAccount('nobody', { role: 'owner', updatedAt: 1 })).toBeNull();
  });

  it('when an account is deleted, then it and its API tokens are gone and a second delete answers false', async () => {
    await accounts().createAccount(person('a1', 'ana@example.com'));
    await accounts().saveToken({
      id: 't1',
      accountId: 'a1',
      name: 'ci',
      tokenHash: 'h1',
      createdAt: 1,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(await accounts().deleteAccount('a1')).toBe(true);
    expect(await accounts().accountById('a1')).toBeNull();
    expect(await accounts().tokenByHash('h1')).toBeNull();
    expect(await accounts().deleteAccount('a1')).toBe(false);
    // Its email is free again.
    expect((await accounts().createAccount(person('a3', 'ana@example.com'))).ok).toBe(true);
  });

  it('when a setup link is taken twice, then only the first taker gets it; an expired link is neither found nor taken', async () => {
    const link = {
      tokenHash: 'h-live',
      role: 'owner' as const,
      email: null,
      createdBy: null,
      createdAt: 100,
      expiresAt: 10_000,
    };
    await accounts().saveSetupLink(link);
    await accounts().saveSetupLink({ ...link, tokenHash: 'h-old', expiresAt: 500 });
    expect(await accounts().findSetupLink('h-live', 1000)).toEqual(link);
    expect(await accounts().findSetupLink('h-old', 1000)).toBeNull();
    expect((await accounts().listSetupLinks(1000)).map((l) => l.tokenHash)).toEqual(['h-live']);
    const takers = await Promise.all([
      accounts().takeSetupLink('h-live', 1000),
      accounts().takeSetupLink('h-live', 1000),
    ]);
    expect(takers.filter((taken) => taken !== null)).toEqual([link]);
    expect(await accounts().findSetupLink('h-live', 1000)).toBeNull();
    expect(await accounts().takeSetupLink('h-old', 1000)).toBeNull();
    expect(await accounts().takeSetupLink('h-unknown', 1000)).toBeNull();
  });

  it('when a setup link is deleted, then it can no longer be found', async () => {
    await accounts().saveSetupLink({
      tokenHash: 'h',
      role: 'editor',
      email: 'e@example.com',
      createdBy: 'a1',
      createdAt: 1,
      expiresAt: 9999,
    });
    expect(await accounts().deleteSetupLink('h')).toBe(true);
    expect(await accounts().findSetupLink('h', 2)).toBeNull();
    expect(await accounts().deleteSetupLink('h')).toBe(false);
  });

  it('when API tokens are saved, then they are found by hash, listed newest first per account, marked used, and revoked by their own account only', async () => {
    await accounts().saveToken({
      id: 't1',
      accountId: 'a1',
      name: 'first',
      tokenHash: 'h1',
      createdAt: 1,
      expiresAt: null,
      lastUsedAt: null,
    });
    await accounts().saveToken({
      id: 't2',
      accountId: 'a1',
      name: 'second',
      tokenHash: 'h2',
      createdAt: 2,
      expiresAt: 99,
      lastUsedAt: null,
    });
    await accounts().saveToken({
      id: 't3',
      accountId: 'a2',
      name: 'other',
      tokenHash: 'h3',
      createdAt: 3,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(await accounts().tokenByHash('h2')).toEqual({
      id: 't2',
      accountId: 'a1',
      name: 'second',
      tokenHash: 'h2',
      createdAt: 2,
      expiresAt: 99,
      lastUsedAt: null,
    });
    expect((await accounts().listTokens('a1')).map((t) => t.id)).toEqual(['t2', 't1']);
    await accounts().markTokenUsed('t1', 50);
    expect((await accounts().tokenByHash('h1'))?.lastUsedAt).toBe(50);
    expect(await accounts().deleteToken('a2', 't1')).toBe(false);
    expect(await accounts().deleteToken('a1', 't1')).toBe(true);
    expect(await accounts().tokenByHash('h1')).toBeNull();
    expect((await accounts().listTokens('a1')).map((t) => t.id)).toEqual(['t2']);
  });
}
