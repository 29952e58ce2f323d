import type { Effect } from '../engine/turn/types.ts';
import type { ChannelAddress } from '../ports/identity-links.ts';
import type { UserRecord } from '../ports/store.ts';
import type { AppDeps } from './deps.ts';
import { hashLinkCode } from './link-code.ts';

export const addressOf = (user: UserRecord): ChannelAddress => ({ channelId: user.channelId, userId: user.userId });

/** Keeps the hash of each code a committed turn showed (link-channels steps), so that it can arrive elsewhere. */
export async function keepLinkCodes(
  deps: AppDeps,
  user: UserRecord,
  effects: readonly Effect[],
  now: number,
): Promise<void> {
  for (const effect of effects) {
    if (effect.type !== 'linkCode') continue;
    if (!deps.identityLinks) {
      deps.logger.warn(
        { event: 'link_code_unkept', userId: user.userId, dialogId: effect.dialogId, stepId: effect.stepId },
        'a link-channels step showed a code, but this server keeps no identity links; the code will not work',
      );
      continue;
    }
    await deps.identityLinks.issueCode({
      codeHash: hashLinkCode(deps.definition.settings.id, effect.code),
      issuer: addressOf(user),
      expiresAt: now + effect.minutes * 60_000,
    });
  }
}
