/**
 * The longest text the studio preview's channel view takes. Every vendor channel but Teams cuts far below it
 * (Telegram and WhatsApp at 4,096, Messenger at 2,000), and a body with it stays under the studio's 16 KiB, so a
 * text one character over is a 400 that names it, never a 413. The studio sends a longer bot text cut to it.
 * A module of its own, without zod, so the studio's bundle can read it.
 */
export const PREVIEW_TEXT_MAX = 8000;
