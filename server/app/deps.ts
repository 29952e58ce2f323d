import type { BotDefinition } from '../definition/schema.ts';
import type { PublishMove } from '../engine/recovery.ts';
import type { BotEventSink } from '../ports/bot-events.ts';
import type { UsageCounters } from '../ports/usage-counters.ts';
import type { Clock } from '../ports/clock.ts';
import type { Delivery } from '../ports/delivery.ts';
import type { IdentityLinks } from '../ports/identity-links.ts';
import type { IntegrationCaller } from '../ports/integrations.ts';
import type { LinkSigner } from '../ports/link-signer.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { SmsSender } from '../ports/sms-sender.ts';
import type { FaqMatcher, IntentClassifier } from '../ports/understanding.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { Scheduler } from '../ports/scheduler.ts';
import type { Store } from '../ports/store.ts';
import type { TurnQueue } from './keyed-queue.ts';
import type { InsightsRecorder } from './insights/recorder.ts';

/** What the use cases need from the outside world, wired once by main.ts. */
export interface AppDeps {
  readonly definition: BotDefinition;
  /** Where users resting on a step the published version removed go, as chosen at publish; settings.recovery for the rest. */
  readonly moves?: readonly PublishMove[];
  readonly store: Store;
  readonly clock: Clock;
  readonly delivery: Delivery;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  /** Serialises each user's turns: in process (KeyedQueue), or across processes sharing a store (LeasedTurns). */
  readonly turns: TurnQueue;
  /** Intent classifier trained from the definition's intents; free text is unprocessed without it. */
  readonly classifier?: IntentClassifier;
  /** Fuzzy matcher over the definition's FAQ pairs. */
  readonly faq?: FaqMatcher;
  /** Unset: email steps fail (logged) and follow their onError. */
  readonly mailer?: Mailer;
  /** Unset: sms steps fail (logged) and follow their onError. */
  readonly sms?: SmsSender;
  /** Turns URL-button targets into tracked links; unset: targets are shown as they are. */
  readonly links?: LinkSigner;
  /** Counters for /metrics (integration calls and errors); none when omitted. */
  readonly metrics?: Metrics;
  /** Runs integration steps; unset: every integration step fails (kind "unconfigured") and follows its onError. */
  readonly integrations?: IntegrationCaller;
  /** How long a visitor's message may take to be stored before they are asked to send it again (TURN_DEADLINE); default 15 s. */
  readonly turnDeadlineMs?: number;
  /** Integration calls a minute per user and service (INTEGRATION_USER_RATE_LIMIT); default 30. */
  readonly integrationCallsPerMinute?: number;
  /**
   * What the studio's insights count: it observes every turn (observe-turn.ts), link clicks and
   * integration calls; none when omitted (tests, benchmarks without insights).
   */
  readonly insights?: InsightsRecorder;
  /** Where the events subscribers may hear about go (event subscriptions); none recorded when absent. */
  readonly events?: BotEventSink;
  /** Step types' daily counters: an erasure removes the user's. */
  readonly usage?: UsageCounters;
  /** One person's channel addresses ("link channels"); none: link-channels steps link nothing (logged). */
  readonly identityLinks?: IdentityLinks;
  /** BOT_IDENTITY_LINK_PHONE: a web chat signed with a verified phone number links to that number's channel user (link-signed-identity.ts). */
  readonly linkByPhone?: boolean;
}
