/**
 * Tracked links for URL buttons: `{base}/r/{signed token}`. The token names
 * the user and the target and is signed, so a changed token is refused and
 * the redirect can never be pointed somewhere else.
 */
export interface LinkSigner {
  /** The tracked link the user sees in place of `url`. */
  link(userId: string, url: string): string;
  /** The user and target of a token, or null when it is not one we signed. */
  verify(token: string): { readonly userId: string; readonly url: string } | null;
}
