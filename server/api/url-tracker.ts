import { createHmac, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { LinkSigner } from '../ports/link-signer.ts';

/**
 * Signed tracked links: token = base64url(JSON [userId, url]) "." base64url(HMAC-SHA256).
 * The key is derived from the session secret, so tokens survive restarts and
 * cannot be forged or pointed elsewhere. Links live on in sent email and SMS, so
 * after a rotation the previous secret (SESSION_SECRET_PREVIOUS) still verifies them.
 */
export function createLinkSigner(
  sessionSecret: string,
  baseUrl: (userId: string) => string,
  previousSecret?: string,
): LinkSigner {
  const signer = (secret: string) => {
    const key = createHmac('sha256', secret).update('url-tracker/v1').digest();
    return (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  };
  const sign = signer(sessionSecret);
  const verifiers = previousSecret === undefined ? [sign] : [sign, signer(previousSecret)];
  const signedHere = (body: string, mac: string) =>
    verifiers.some((verifier) => {
      const expected = Buffer.from(verifier(body));
      const given = Buffer.from(mac);
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  return {
    link(userId, url) {
      const body = Buffer.from(JSON.stringify([userId, url])).toString('base64url');
      return `${baseUrl(userId).replace(/\/$/, '')}/r/${body}.${sign(body)}`;
    },
    verify(token) {
      const [body, mac, extra] = token.split('.');
      if (!body || !mac || extra !== undefined || !signedHere(body, mac)) return null;
      try {
        const parsed: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') return null;
        return { userId: parsed[0], url: parsed[1] };
      } catch {
        return null;
      }
    },
  };
}

/**
 * GET /r/:token: records the click and answers 302 to the target. A token we
 * did not sign gets a 400 page and is never redirected anywhere.
 */
export function urlTrackerRouter(open: (token: string) => Promise<string | null>): Router {
  const router = Router();
  router.get('/r/:token', async (req, res, next) => {
    try {
      const target = await open(String(req.params.token));
      if (target === null) {
        res
          .status(400)
          .type('html')
          .set('cache-control', 'no-store')
          .send(
            '<!doctype html><meta charset="utf-8"><title>Link not valid</title><h1>This link is not valid</h1><p>It may have been changed or cut short. Go back to the chat and press the button again.</p>',
          );
        return;
      }
      res.set('cache-control', 'no-store').set('referrer-policy', 'no-referrer').redirect(302, target);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
