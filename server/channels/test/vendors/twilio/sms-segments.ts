/**
 * How many SMS segments a body takes, as carriers count them: GSM-7 when every character is in the GSM
 * 03.38 alphabet (160 septets alone, 153 per part when split, the extension characters taking two),
 * otherwise UCS-2 (70 UTF-16 units alone, 67 per part). The stand-in reports it as Twilio's
 * `num_segments`, so a test can see what a user's carrier would bill and split.
 */
const gsmBasic = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const gsmExtension = new Set('^{}\\[~]|€\f');

export interface SmsSegments {
  readonly encoding: 'GSM-7' | 'UCS-2';
  readonly segments: number;
}

export function smsSegments(body: string): SmsSegments {
  const characters = [...body];
  if (characters.every((character) => gsmBasic.has(character) || gsmExtension.has(character))) {
    const septets = characters.reduce((sum, character) => sum + (gsmExtension.has(character) ? 2 : 1), 0);
    return { encoding: 'GSM-7', segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  }
  const units = body.length;
  return { encoding: 'UCS-2', segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
