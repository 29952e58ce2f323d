import type { UserDoc } from './user-doc.ts';

/**
 * The user documents this process read or wrote last, by user: a turn reads its user
 * (getUser) to run the engine, and its commit then needs the same document (lastSeq,
 * the latest clientIds, what a crash may have left). Taking it from here saves the
 * commit a second read of the user. It is safe because the commit's write is
 * conditional on the version and lastSeq it was computed from: a document that changed
 * since (another node's turn, an append) makes the commit a conflict, and the turn is
 * run again on a fresh read. Bounded: the oldest are dropped first.
 */
export class UserDocCache {
  private readonly docs = new Map<string, UserDoc>();
  constructor(private readonly limit = 10_000) {}

  put(doc: UserDoc): void {
    this.docs.delete(doc._id);
    this.docs.set(doc._id, doc);
    if (this.docs.size > this.limit) this.docs.delete(this.docs.keys().next().value as string);
  }

  /** The document as last seen, if it had this version. */
  at(userId: string, version: number): UserDoc | undefined {
    const doc = this.docs.get(userId);
    return doc?.version === version ? doc : undefined;
  }

  forget(userId: string): void {
    this.docs.delete(userId);
  }
}
