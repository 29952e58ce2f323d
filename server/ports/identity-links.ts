/**
 * One person's channel addresses joined into one conversation ("link channels", docs/channels.md):
 * which addresses belong together, the one-time codes that prove it, and the wrong tries that
 * limit guessing. A port of its own beside the Store: only linking, the web chat's handshake,
 * triggers, exports and erasure ask it. `stores/contract/identity-links-cases.ts` pins it.
 */

/** A user as a channel knows them: the spec's user address without the bot. */
export interface ChannelAddress {
  readonly channelId: string;
  readonly userId: string;
}

/** An address of a person, with when it joined and when the person last wrote from it. */
export interface LinkedAddress extends ChannelAddress {
  readonly linkedAt: number;
  readonly usedAt: number;
}

/** Addresses that are one person. */
export interface LinkedPerson {
  /** The primary address's user id: its user record holds the dialog state, user data and transcript. */
  readonly personId: string;
  /** Every address of the person, the primary first, then in the order they joined. */
  readonly addresses: readonly LinkedAddress[];
  /** The address the person wrote from last (a trigger reaches them there). */
  readonly lastUsed: ChannelAddress;
}

/** A one-time code as stored: never the code itself, only its hash. */
export interface LinkCode {
  readonly codeHash: string;
  /** The address the code was shown on. */
  readonly issuer: ChannelAddress;
  readonly expiresAt: number;
}

export interface IdentityLinks {
  /** The person the address belongs to; null for an address linked to no other. */
  personOf(userId: string): Promise<LinkedPerson | null>;
  /** The persons of several user ids at once (an export's page), by user id; unlinked ids are left out. */
  personsOf(userIds: readonly string[]): Promise<ReadonlyMap<string, LinkedPerson>>;
  /**
   * Joins `other` to the person of `primary` (which becomes one when it was not). An address
   * belongs to one person only: `taken` when `other` is already another person's (or `primary`
   * is another person's non-primary address while `other` has a person of its own). Linking
   * the same two again is a no-op that answers the person.
   */
  link(primary: ChannelAddress, other: ChannelAddress, now: number): Promise<LinkedPerson | 'taken'>;
  /** The person wrote through this channel: their address on it becomes their `lastUsed`. A no-op for anyone else. */
  used(personId: string, channelId: string, now: number): Promise<void>;
  /** Forgets the person of the address with every address, code and wrong try of theirs; returns the addresses (none when unlinked). */
  forget(userId: string): Promise<readonly ChannelAddress[]>;
  /** Stores a code, replacing any earlier code the same address was shown. */
  issueCode(code: LinkCode): Promise<void>;
  /** Takes a code once: the first caller gets it while it is valid; every later caller, or after `expiresAt`, gets null. */
  takeCode(codeHash: string, now: number): Promise<LinkCode | null>;
  /** Records a wrong code typed from the address. */
  recordMiss(userId: string, at: number): Promise<void>;
  /** Wrong codes typed from the address at or after `since`. */
  missesSince(userId: string, since: number): Promise<number>;
  /** Removes codes expired and wrong tries recorded before `before`; returns how many rows went. */
  purge(before: number): Promise<number>;
}
