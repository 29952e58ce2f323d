import type { BotEvent } from '../../shared/protocol.ts';
import type { Delivery } from '../ports/delivery.ts';
import { WEBCHAT } from '../app/link-channels.ts';
import type { Logger } from '../ports/logger.ts';
import type { Store, TranscriptEntry } from '../ports/store.ts';

/** Users whose channel is remembered; past it the memory starts over (a lookup is one read). */
const MAX_REMEMBERED = 100_000;

export interface ChannelRoutes {
  /** The delivery of a channel by its channelId; users of no listed channel go to `fallback`. */
  readonly channels: ReadonlyMap<string, Delivery>;
  /** The web chat, whose users are the many and whose ids the server issued. */
  readonly fallback: Delivery;
}

/**
 * The delivery the use cases see: routes each user's messages to their channel's
 * delivery, by the channelId stored with the user. A channel never changes for a
 * user, so it is remembered; one user's deliveries stay in order while it is looked up.
 */
export function deliveryByChannel(
  store: Store,
  routes: ChannelRoutes,
  logger: Logger,
): Required<Omit<Delivery, 'admitTrigger'>> &
  Pick<Delivery, 'admitTrigger'> & { remember(userId: string, channelId: string): void } {
  const known = new Map<string, Delivery>();
  const lookups = new Map<string, Promise<Delivery>>();
  const remember = (userId: string, channelId: string) => {
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(userId, routes.channels.get(channelId) ?? routes.fallback);
  };
  const route = (userId: string, use: (delivery: Delivery) => void) => {
    const found = lookups.has(userId) ? undefined : known.get(userId);
    if (found) return use(found);
    const lookup = (lookups.get(userId) ?? Promise.resolve(undefined)).then(async () => {
      const cached = known.get(userId);
      if (cached) return cached;
      const user = await store.getUser(userId);
      if (user) remember(userId, user.channelId);
      return user ? (known.get(userId) ?? routes.fallback) : routes.fallback;
    });
    lookups.set(userId, lookup);
    void lookup
      .then(use, (error: unknown) =>
        logger.error(
          { event: 'delivery_route_failed', userId, err: error },
          'could not find the channel of a user to deliver to',
        ),
      )
      .finally(() => {
        if (lookups.get(userId) === lookup) lookups.delete(userId);
      });
  };
  const admits = [...routes.channels.values()].some((delivery) => delivery.admitTrigger !== undefined);
  return {
    remember,
    // Offered only when a channel has rules for triggers, so that no other trigger costs a read.
    ...(admits
      ? ({
          admitTrigger(user, channelId, dialogId, now) {
            (routes.channels.get(user?.channelId ?? channelId) ?? routes.fallback).admitTrigger?.(
              user,
              channelId,
              dialogId,
              now,
            );
          },
        } satisfies Pick<Delivery, 'admitTrigger'>)
      : {}),
    deliver(userId: string, entries: readonly TranscriptEntry[]) {
      if (routes.channels.size === 0) return routes.fallback.deliver(userId, entries);
      route(userId, (delivery) => delivery.deliver(userId, entries));
    },
    typing(userId: string, on: boolean) {
      (known.get(userId) ?? routes.fallback).typing(userId, on);
    },
    event(userId: string, event: BotEvent) {
      if (routes.channels.size === 0) return routes.fallback.event(userId, event);
      route(userId, (delivery) => delivery.event(userId, event));
    },
    reach(userId: string, channelId: string) {
      // Not remembered yet (a user new to this process): the channel the caller addresses them by.
      return (known.get(userId) ?? routes.channels.get(channelId) ?? routes.fallback).reach(userId, channelId);
    },
    eventMessages(user, events) {
      if (routes.channels.size === 0) return routes.fallback.eventMessages?.(user, events) ?? [];
      return (routes.channels.get(user.channelId) ?? routes.fallback).eventMessages?.(user, events) ?? [];
    },
    handOff(user, turn) {
      if (routes.channels.size === 0) return routes.fallback.handOff?.(user, turn) ?? [];
      // The turn has read the user: their channel is known here without a lookup.
      if (!known.has(user.userId)) remember(user.userId, user.channelId);
      // A linked person hears back where they wrote from (via), which may not be the channel stored with them.
      return (
        (known.get(user.userId) ?? routes.channels.get(user.channelId) ?? routes.fallback).handOff?.(user, turn) ?? []
      );
    },
    async webchatOpen(userId) {
      // The web chat's own answer: its sockets here, or the cluster's presence (another node's widget).
      return (await routes.fallback.reach(userId, WEBCHAT)) === 'live';
    },
    via(userId, channelId) {
      const before = known.get(userId);
      remember(userId, channelId);
      return before !== known.get(userId);
    },
    moved(fromUserId, toUserId) {
      routes.fallback.moved?.(fromUserId, toUserId);
    },
    erasing(userId, begins) {
      // Every channel: a linked person's turns may have gone out through any of theirs.
      for (const delivery of routes.channels.values()) delivery.erasing?.(userId, begins);
      routes.fallback.erasing?.(userId, begins);
      if (!begins) known.delete(userId);
    },
  };
}
