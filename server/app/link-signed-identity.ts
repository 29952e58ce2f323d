import type { ChannelAddress } from '../ports/identity-links.ts';
import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { latest, WEBCHAT } from './link-channels.ts';
import { updateUserWithRetry } from './update-user.ts';

/** A web chat user the site signed for (BOT_IDENTITY_SECRET), with the phone number the site verified, E.164. */
export interface SignedIdentity {
  readonly userId: string;
  readonly phone: string;
}

/**
 * The addresses whose user id *is* a phone number the vendor verified: the only channel data a
 * signed phone number is matched with. WhatsApp confirms a number by a code when its owner
 * registers, so a WhatsApp sender is that number's owner (the Cloud API's `from` is the digits
 * without "+", whatsapp-inbound.ts; Twilio's keeps the "+", twilio-connector.ts). Not SMS: a
 * sender number can be spoofed on the way to Twilio. Not a number a user typed or a step saved in
 * user data: that is a claim. Telegram, Slack, Messenger and Teams tell no phone number.
 */
const VERIFIED_PHONE_ADDRESSES: readonly ((phone: string) => ChannelAddress)[] = [
  (phone) => ({ channelId: 'whatsapp', userId: `whatsapp:${phone.slice(1)}` }),
  (phone) => ({ channelId: 'twilio-whatsapp', userId: `twilio-whatsapp:${phone}` }),
];

/**
 * A web chat opened with a signed identity that carries a phone number the site verified
 * (BOT_IDENTITY_LINK_PHONE): when a channel user of that number is known (they wrote to the bot on
 * WhatsApp), the web chat is linked to that person, as a link code would link it, and speaks for
 * them. Their conversation goes on: its position, user data and variables stay; the web chat user's
 * own user data and variables fill the gaps. Answers the person's id when the web chat speaks for a
 * person (linked now or before), else undefined (no such channel user yet: the next connect looks again).
 */
export async function linkSignedIdentity(
  deps: Pick<AppDeps, 'identityLinks' | 'store' | 'turns' | 'clock' | 'logger' | 'insights'>,
  identity: SignedIdentity,
): Promise<string | undefined> {
  const links = deps.identityLinks;
  if (!links) return undefined;
  const web: ChannelAddress = { channelId: WEBCHAT, userId: identity.userId };
  const known = await links.personOf(web.userId);
  if (known) return known.personId === web.userId ? undefined : known.personId;
  const owner = await phoneOwner(deps, identity.phone);
  if (!owner) return undefined;
  const now = deps.clock.now();
  const person = await links.link({ channelId: owner.channelId, userId: owner.userId }, web, now);
  if (person === 'taken') {
    deps.logger.warn(
      { event: 'link_refused', userId: web.userId, channelId: WEBCHAT, reason: 'taken' },
      "a signed identity was not linked: the web chat is already another person's",
    );
    return undefined;
  }
  await fillGaps(deps, person.personId, web.userId, now);
  deps.logger.info(
    {
      event: 'channels_linked',
      userId: person.personId,
      linked: web.userId,
      channelId: WEBCHAT,
      by: 'signed_identity',
    },
    'a web chat with a signed phone number was linked to the channel user of that number',
  );
  return person.personId;
}

/** The channel user whose verified address is the number; of several (WhatsApp direct and through Twilio), the one who wrote last. */
async function phoneOwner(deps: Pick<AppDeps, 'store'>, phone: string): Promise<UserRecord | undefined> {
  const candidates = VERIFIED_PHONE_ADDRESSES.map((addressOf) => addressOf(phone));
  const users = await Promise.all(candidates.map((address) => deps.store.getUser(address.userId)));
  let owner: UserRecord | undefined;
  users.forEach((user, index) => {
    if (!user || user.preview !== undefined || user.channelId !== candidates[index]!.channelId) return;
    if (!owner || (user.lastMessageAt ?? 0) > (owner.lastMessageAt ?? 0)) owner = user;
  });
  return owner;
}

/**
 * The web chat user's own user data and variables (a returning site visitor's) fill the person's
 * gaps, and the person wrote when either did (insights count them active once a day).
 */
async function fillGaps(
  deps: Pick<AppDeps, 'store' | 'turns' | 'insights'>,
  personId: string,
  webUserId: string,
  now: number,
): Promise<void> {
  const web = await deps.store.getUser(webUserId);
  if (!web) return;
  let before: UserRecord | undefined;
  await deps.turns.run(personId, () =>
    updateUserWithRetry(deps.store, personId, now, (person) => {
      before = person;
      return {
        userData: { ...web.userData, ...person.userData },
        variables: { ...web.variables, ...person.variables },
        lastMessageAt: latest(person.lastMessageAt, web.lastMessageAt),
      };
    }),
  );
  // The person as the write that went through read them: a retried write must not take a count back twice.
  if (before) deps.insights?.linked(before, web, now);
}
