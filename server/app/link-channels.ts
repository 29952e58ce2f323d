import type { UserMessage } from '../../shared/protocol.ts';
import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { applyTurn } from './apply-turn.ts';
import { addressOf } from './keep-link-codes.ts';
import { hashLinkCode, linkCodeIn, linksChannels } from './link-code.ts';

/** Wrong codes an address may type within the window before every code it types is refused. */
export const MAX_LINK_MISSES = 5;
export const LINK_MISS_WINDOW_MS = 15 * 60_000;
/** The web chat: its user ids are the server's, one per browser; a person's other address is their lasting one. */
export const WEBCHAT = 'webchat';

export interface CodeMessage {
  readonly userId: string;
  readonly clientId: string;
  readonly message: UserMessage;
}

/** How a code that arrived was taken: linked (the turn's seq in the person's transcript, and who speaks for both now) or not a link at all. */
export type Redeemed = { readonly seq: number; readonly duplicate: false; readonly personId: string } | null;

/** Whether a message is worth a look in the store: the bot links channels, and the message has a code's shape. */
export function mayBeLinkCode(deps: AppDeps, message: UserMessage): boolean {
  return (
    deps.identityLinks !== undefined &&
    message.type === 'text' &&
    linksChannels(deps.definition) &&
    linkCodeIn(message.text) !== null
  );
}

/**
 * A message that may be a code a link-channels step showed on another channel. When it is one,
 * valid, unused and shown to another address, the two addresses become one person and the turn
 * runs on the person: the message is stored in their transcript, the dialog goes on from the
 * step that showed the code, and the user's open web chats switch to the person. Anything else
 * (not a code, a wrong or used or expired code, too many wrong tries, the same address) links
 * nothing and answers null: the message is then an ordinary one. A typed phone number or email
 * never links anything; only a code the bot showed does.
 */
export async function redeemLinkCode(deps: AppDeps, input: CodeMessage): Promise<Redeemed> {
  const links = deps.identityLinks;
  const code = input.message.type === 'text' ? linkCodeIn(input.message.text) : null;
  if (!links || code === null || !linksChannels(deps.definition)) return null;
  const now = deps.clock.now();
  const redeemer = await deps.store.getUser(input.userId);
  if (!redeemer) return null;
  const log = { event: 'link_refused', userId: input.userId, channelId: redeemer.channelId };
  if ((await links.missesSince(input.userId, now - LINK_MISS_WINDOW_MS)) >= MAX_LINK_MISSES) {
    deps.logger.warn({ ...log, reason: 'too_many_tries' }, 'a link code was refused: too many wrong codes lately');
    return null;
  }
  const taken = await links.takeCode(hashLinkCode(deps.definition.settings.id, code), now);
  if (!taken) {
    await links.recordMiss(input.userId, now);
    deps.logger.info({ ...log, reason: 'unknown_code' }, 'a message looked like a link code but is none');
    return null;
  }
  const issuer = await deps.store.getUser(taken.issuer.userId);
  if (!issuer || issuer.userId === redeemer.userId) {
    // Typed where it was shown: nothing to link, and the code still works on the other channel.
    if (issuer) await links.issueCode(taken);
    return null;
  }
  const primary = primaryOf(issuer, redeemer);
  const other = primary === issuer ? redeemer : issuer;
  // A person has one address per channel other than the web chat: the one their answers on it go to.
  const holder = other.channelId === WEBCHAT ? null : await links.personOf(primary.userId);
  const second =
    other.channelId === primary.channelId || holder?.addresses.some((a) => a.channelId === other.channelId);
  if (other.channelId !== WEBCHAT && second) {
    await links.issueCode(taken);
    deps.logger.warn(
      { ...log, reason: 'channel_taken', issuerChannelId: issuer.channelId },
      'a link code was refused: the person has an address on that channel already; nothing was linked',
    );
    return null;
  }
  const person = await links.link(addressOf(primary), addressOf(other), now);
  if (person === 'taken') {
    deps.logger.warn({ ...log, reason: 'taken' }, "a link code was refused: the address is already another person's");
    return null;
  }
  deps.insights?.linked(primary, other, now);
  // A moment after the link's own time (which both addresses carry): the channel the code came on is the one used last.
  await links.used(person.personId, redeemer.channelId, now + 1);
  // Before the turn, whose answers go where the user wrote the code.
  deps.delivery.via?.(primary.userId, redeemer.channelId);
  const outcome = await deps.turns.run(primary.userId, () =>
    applyTurn(
      deps,
      primary.userId,
      issuer.position
        ? { kind: 'linked', dialogId: issuer.position.dialogId, stepId: issuer.position.stepId }
        : { kind: 'linked', dialogId: '', stepId: '' },
      now,
      {
        userWrote: true,
        userEntry: { from: 'user', clientId: input.clientId, at: now, message: input.message },
        adjust: (user) => mergeInto(user, issuer, redeemer),
      },
    ),
  );
  // The web chat that spoke for the other address speaks for the person from now on.
  if (other.channelId === WEBCHAT) deps.delivery.moved?.(other.userId, primary.userId);
  deps.logger.info(
    { event: 'channels_linked', userId: primary.userId, linked: other.userId, channelId: other.channelId },
    'two channel addresses were linked into one conversation',
  );
  const own =
    outcome.status === 'committed'
      ? outcome.entries.find((entry) => entry.from === 'user' && entry.clientId === input.clientId)
      : outcome.entry;
  return { seq: own?.seq ?? 0, duplicate: false, personId: primary.userId };
}

/**
 * Whose record holds the person: the address that is not the web chat (the web chat's ids are
 * one browser's; a phone number or chat id lasts). Two web chats, or two other channels (Telegram
 * and WhatsApp): the one that showed the code. Each turn answers on the channel it came from
 * (Delivery.via), and a connector sends to the person's address on its own channel.
 */
function primaryOf(issuer: UserRecord, redeemer: UserRecord): UserRecord {
  return issuer.channelId === WEBCHAT && redeemer.channelId !== WEBCHAT ? redeemer : issuer;
}

/**
 * The merge, onto `fresh` (the primary as the turn read it): the address that showed the code is
 * the conversation going on, so its position, user data and variables win; the other address's
 * user-data fields and variables fill the gaps. The other address's own transcript stays under
 * its id (exports list both addresses).
 */
export function mergeInto(fresh: UserRecord, issuer: UserRecord, redeemer: UserRecord): UserRecord {
  const shown = fresh.userId === issuer.userId ? fresh : issuer;
  const typed = fresh.userId === redeemer.userId ? fresh : redeemer;
  return {
    ...fresh,
    position: shown.position,
    userData: { ...typed.userData, ...shown.userData },
    variables: { ...typed.variables, ...shown.variables },
    // The person wrote when either address did: insights count them active once a day (recorder.ts `linked`).
    lastMessageAt: latest(fresh.lastMessageAt, fresh === shown ? typed.lastMessageAt : shown.lastMessageAt),
  };
}

/** The later of two message times (null: never wrote). */
export function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}
