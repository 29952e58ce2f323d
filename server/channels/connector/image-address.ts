/**
 * An image's address as a vendor can fetch it. A vendor fetches the image itself, from its own
 * servers: it needs an absolute http(s) address. A bot's own image is often given by its path on
 * this server (`/images/robot.png`, allowed in image steps and cards): it is put on the server's
 * public address (PUBLIC_URL, its path kept, as every link the bot sends is). Undefined when it
 * cannot be made absolute (a path with no public address known, or no web address at all): then the
 * ladder takes the next rung rather than send an address the vendor refuses.
 */
export function vendorImageUrl(url: string, publicUrl: string | undefined): string | undefined {
  if (/^https?:\/\//i.test(url)) return url;
  if (!url.startsWith('/') || publicUrl === undefined) return undefined;
  return `${publicUrl.replace(/\/+$/, '')}${url}`;
}
