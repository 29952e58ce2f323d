import { expect, it } from 'vitest';
import type { IdentityLinks } from '../../ports/identity-links.ts';

const whatsapp = { channelId: 'whatsapp', userId: 'whatsapp:4915100000001' };
const web = { channelId: 'webchat', userId: 'w-1' };
const web2 = { channelId: 'webchat', userId: 'w-2' };
const telegram = { channelId: 'telegram', userId: 'telegram:77' };
const code = (codeHash: string, issuer = whatsapp, expiresAt = 10_000) => ({ codeHash, issuer, expiresAt });

/** One person's linked addresses, link codes and wrong tries (ports/identity-links.ts): an adapter is done when these pass on it. */
export function identityLinksCases(subject: () => { readonly links: IdentityLinks }): void {
  it('when an address was never linked, then it has no person', async () => {
    expect(await subject().links.personOf(web.userId)).toBeNull();
    expect(await subject().links.forget(web.userId)).toEqual([]);
  });

  it('when two addresses are linked, then both name the primary as the person, the primary first', async () => {
    const { links } = subject();
    const person = await links.link(whatsapp, web, 1_000);
    const expected = {
      personId: whatsapp.userId,
      addresses: [
        { ...whatsapp, linkedAt: 1_000, usedAt: 1_000 },
        { ...web, linkedAt: 1_000, usedAt: 1_000 },
      ],
      lastUsed: whatsapp,
    };
    expect(person).toEqual(expected);
    expect(await links.personOf(web.userId)).toEqual(expected);
    expect(await links.personOf(whatsapp.userId)).toEqual(expected);
    expect(await links.link(whatsapp, web, 2_000)).toEqual(expected);
  });

  it('when a third address joins through a linked one, then it joins the same person', async () => {
    const { links } = subject();
    await links.link(whatsapp, web, 1_000);
    const person = await links.link(web, web2, 2_000);
    expect(person !== 'taken' && person.personId).toBe(whatsapp.userId);
    expect((await links.personOf(web2.userId))?.addresses.map((a) => a.userId)).toEqual([
      whatsapp.userId,
      web.userId,
      web2.userId,
    ]);
  });

  it("when an address already is another person's, then linking it elsewhere is refused and changes nothing", async () => {
    const { links } = subject();
    await links.link(whatsapp, web, 1_000);
    expect(await links.link(telegram, web, 2_000)).toBe('taken');
    expect(await links.link(telegram, whatsapp, 2_000)).toBe('taken');
    expect(await links.personOf(telegram.userId)).toBeNull();
    expect((await links.personOf(web.userId))?.personId).toBe(whatsapp.userId);
  });

  it('when two links race for one address, then exactly one person gets it', async () => {
    const { links } = subject();
    const answers = await Promise.all([links.link(whatsapp, web, 1_000), links.link(telegram, web, 1_000)]);
    expect(answers.filter((answer) => answer === 'taken')).toHaveLength(1);
    const person = await links.personOf(web.userId);
    expect(person?.addresses).toHaveLength(2);
  });

  it('when the person writes through a channel, then their address on it is their last used; others are left alone', async () => {
    const { links } = subject();
    await links.link(whatsapp, web, 1_000);
    await links.used(whatsapp.userId, 'webchat', 5_000);
    await links.used('nobody', 'webchat', 5_000);
    expect((await links.personOf(whatsapp.userId))?.lastUsed).toEqual(web);
    expect(await links.personOf('nobody')).toBeNull();
    await links.used(whatsapp.userId, 'whatsapp', 6_000);
    expect((await links.personOf(web.userId))?.lastUsed).toEqual(whatsapp);
  });

  it('when several user ids are asked at once, then the linked ones come back by id', async () => {
    const { links } = subject();
    await links.link(whatsapp, web, 1_000);
    const found = await links.personsOf([web.userId, 'nobody', whatsapp.userId]);
    expect([...found.keys()].sort()).toEqual([web.userId, whatsapp.userId].sort());
    expect(found.get(web.userId)?.personId).toBe(whatsapp.userId);
  });

  it('when a person is forgotten, then every address, code and wrong try of theirs goes; others stay', async () => {
    const { links } = subject();
    await links.link(whatsapp, web, 1_000);
    await links.link(telegram, web2, 1_000);
    await links.issueCode(code('h-1', whatsapp));
    await links.issueCode(code('h-2', telegram));
    await links.recordMiss(web.userId, 1_000);
    await links.recordMiss(web2.userId, 1_000);
    const gone = await links.forget(web.userId);
    expect(gone.map((a) => a.userId).sort()).toEqual([web.userId, whatsapp.userId].sort());
    expect(await links.personOf(whatsapp.userId)).toBeNull();
    expect(await links.takeCode('h-1', 2_000)).toBeNull();
    expect(await links.missesSince(web.userId, 0)).toBe(0);
    expect((await links.personOf(web2.userId))?.personId).toBe(telegram.userId);
    expect(await links.missesSince(web2.userId, 0)).toBe(1);
    expect((await links.takeCode('h-2', 2_000))?.issuer).toEqual(telegram);
  });

  it('when a code is taken, then the first caller gets it and every later one gets nothing', async () => {
    const { links } = subject();
    await links.issueCode(code('h', whatsapp, 10_000));
    expect(await links.takeCode('h', 2_000)).toEqual(code('h', whatsapp, 10_000));
    expect(await links.takeCode('h', 2_000)).toBeNull();
    expect(await links.takeCode('unknown', 2_000)).toBeNull();
  });

  it('when ten callers race for one code, then exactly one gets it', async () => {
    const { links } = subject();
    await links.issueCode(code('h'));
    const taken = await Promise.all(Array.from({ length: 10 }, () => links.takeCode('h', 2_000)));
    expect(taken.filter((t) => t !== null)).toHaveLength(1);
  });

  it('when a code has expired, then taking it gives nothing', async () => {
    const { links } = subject();
    await links.issueCode(code('h', whatsapp, 10_000));
    expect(await links.takeCode('h', 10_000)).toBeNull();
  });

  it('when an address is shown a new code, then its earlier code no longer works', async () => {
    const { links } = subject();
    await links.issueCode(code('old', whatsapp));
    await links.issueCode(code('new', whatsapp));
    expect(await links.takeCode('old', 2_000)).toBeNull();
    expect((await links.takeCode('new', 2_000))?.issuer).toEqual(whatsapp);
  });

  it('when wrong tries are counted, then only those of the address since the time count', async () => {
    const { links } = subject();
    await links.recordMiss(web.userId, 1_000);
    await links.recordMiss(web.userId, 2_000);
    await links.recordMiss(web.userId, 3_000);
    await links.recordMiss(web2.userId, 3_000);
    expect(await links.missesSince(web.userId, 2_000)).toBe(2);
    expect(await links.missesSince(web.userId, 0)).toBe(3);
  });

  it('when old codes and tries are purged, then only those before the time go', async () => {
    const { links } = subject();
    await links.issueCode(code('old', whatsapp, 1_000));
    await links.issueCode(code('new', telegram, 9_000));
    await links.recordMiss(web.userId, 1_000);
    await links.recordMiss(web.userId, 8_000);
    expect(await links.purge(5_000)).toBe(2);
    expect(await links.missesSince(web.userId, 0)).toBe(1);
    expect((await links.takeCode('new', 5_000))?.issuer).toEqual(telegram);
  });
}
