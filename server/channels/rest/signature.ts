import { signWebhook } from '../../app/webhook-signature.ts';

/** A callback's signature: the scheme every outbound POST of the bot shares (app/webhook-signature.ts). */
export const signCallback = signWebhook;
