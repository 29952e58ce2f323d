// What bench/insights.ts seeds: users, their transcripts, one conversation summary each and the
// day counters those conversations add up to, generated the same way (fixed seed) for both stores.
// The shapes are the product's own: ConversationSummary and CountDelta (server/ports/insights.ts),
// transcript entries as the store keeps them. Run alone (by `npm run bench`) it does nothing.
import {
  dayOf,
  latencyBucket,
  type ConversationSummary,
  type CountDelta,
  type Metric,
} from '../server/ports/insights.ts';

/** The bench bot: one dialog of STEPS input steps (the drop-off reads 60 steps in order). */
export const STEPS = 60;
export const stepId = (n: number) => `s${String(n).padStart(2, '0')}`;
export const DIALOG = 'flow';

export function benchBot(): unknown {
  return {
    settings: { id: 'insights-bench', name: 'Insights bench bot', startDialog: DIALOG },
    userDataFields: ['email', 'plan'],
    dialogs: [
      {
        id: DIALOG,
        steps: Array.from({ length: STEPS }, (_, i) => ({
          id: stepId(i + 1),
          type: 'input',
          prompt: `Question ${i + 1}?`,
          saveTo: { variable: 'answer' },
        })),
      },
    ],
  };
}

/** A rare word (about one conversation in 10,007) and a user whose e-mail the field search looks for. */
export const RARE_WORD = 'chargeback';
export const rareEvery = 10_007;
export const userIdOf = (i: number) => `u${String(i).padStart(6, '0')}`;
export const emailOf = (i: number) => `${userIdOf(i)}@example.com`;

const WORDS = [
  'order',
  'pizza',
  'delivery',
  'price',
  'opening',
  'hours',
  'cancel',
  'address',
  'invoice',
  'table',
  'vegan',
  'gluten',
  'tomorrow',
  'tonight',
  'large',
  'small',
];
const DOMAINS = Array.from({ length: 40 }, (_, i) => `site${i}.example.com`);
const STATUSES = ['2xx', '2xx', '2xx', '2xx', '4xx', '5xx', 'failed'];

/** mulberry32: the same data every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface SeedMessage {
  readonly seq: number;
  readonly from: 'user' | 'bot';
  readonly at: number;
  readonly message: { type: 'text'; text: string };
  readonly dialogId?: string;
  readonly stepId?: string;
}

export interface SeedUser {
  readonly userId: string;
  readonly userData: { email: string; plan: string };
  readonly messages: readonly SeedMessage[];
  readonly summary: ConversationSummary;
}

export interface SeedPlan {
  readonly users: number;
  readonly rows: number;
  readonly now: number;
  readonly days: number;
  readonly version: string;
}

/**
 * Every user, one at a time (never all in memory), with their one conversation in the last
 * `days` days, all of them over (last turn more than an hour ago). A conversation reached the
 * first k steps of the flow (k uniform in 1..60) and stopped at step k; its messages alternate bot
 * and user, the bot's said by the step the conversation was on.
 */
export function* seedUsers(plan: SeedPlan): Generator<SeedUser> {
  const next = random(42);
  const perUser = Math.floor(plan.rows / plan.users);
  const extra = plan.rows % plan.users;
  // From the start of the first of the `days` UTC days up to today (the dashboard's default range) to two hours ago.
  const first = (dayOf(plan.now) - (plan.days - 1)) * 86_400_000 + 60_000;
  const span = plan.now - 2 * 3_600_000 - first;
  for (let i = 0; i < plan.users; i++) {
    const userId = userIdOf(i);
    const startedAt = Math.floor(first + next() * span);
    const reached = 1 + Math.floor(next() * STEPS);
    const count = perUser + (i < extra ? 1 : 0);
    const messages: SeedMessage[] = [];
    const words: string[] = [];
    for (let m = 0; m < count; m++) {
      const at = startedAt + m * 20_000;
      const step = stepId(Math.min(reached, 1 + Math.floor((m * reached) / Math.max(1, count))));
      if (m % 2 === 0)
        messages.push({
          seq: m + 1,
          from: 'bot',
          at,
          message: { type: 'text', text: `Question ${step}?` },
          dialogId: DIALOG,
          stepId: step,
        });
      else {
        let text = `${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} number ${Math.floor(next() * 1000)}`;
        if (m === 1 && i % rareEvery === 0) text = `I want a ${RARE_WORD} for order ${i}`;
        words.push(text);
        messages.push({ seq: m + 1, from: 'user', at, message: { type: 'text', text } });
      }
    }
    const userData = { email: emailOf(i), plan: i % 10 === 0 ? 'pro' : 'free' };
    const steps = Array.from({ length: reached }, (_, s) => `${DIALOG}/${stepId(s + 1)}`);
    const lastAt = messages.at(-1)?.at ?? startedAt;
    const summary: ConversationSummary = {
      userId,
      startedAt,
      lastAt,
      channel: i % 5 === 0 ? 'rest' : 'webchat',
      version: plan.version,
      lastVersion: plan.version,
      steps,
      lastStep: steps.at(-1) ?? null,
      integrationError: i % 50 === 0,
      messages: count,
      text: words.join(' \n').slice(0, 1000),
      userData,
      events: [
        { at: startedAt - 1000, kind: 'pageEvent', name: 'pricing-viewed' },
        { at: startedAt + 30_000, kind: 'trigger', name: 'reminder' },
      ],
    };
    yield { userId, userData, messages, summary };
  }
}

/** The day counters the conversations add up to, as the recorder would have written them over the days. */
export class CounterSum {
  private readonly sums = new Map<string, number>();
  private readonly next = random(7);

  add(user: SeedUser, index: number): void {
    const s = user.summary;
    const day = dayOf(s.startedAt);
    const inc = (metric: Metric, a = '', b = '', n = 1) => {
      const key = `${day}\u0000${metric}\u0000${a}\u0000${b}`;
      this.sums.set(key, (this.sums.get(key) ?? 0) + n);
    };
    inc('conversations');
    inc('activeUsers');
    inc('messagesUser', '', '', user.messages.filter((m) => m.from === 'user').length);
    inc('messagesBot', '', '', user.messages.filter((m) => m.from === 'bot').length);
    inc('dialogStarted', DIALOG);
    if (s.steps.length === STEPS) inc('dialogCompleted', DIALOG);
    for (const step of s.steps) inc('stepReached', DIALOG, step.slice(DIALOG.length + 1));
    inc('stepStopped', DIALOG, s.lastStep!.slice(DIALOG.length + 1));
    if (index % 7 === 0) inc('unprocessed', `what about thing ${Math.floor(this.next() * 5000)}`);
    if (index % 3 === 0) inc(this.next() < 0.8 ? 'faqAnswered' : 'faqMissed');
    if (index % 15 === 0) inc('faqMiss', `question nobody answered ${Math.floor(this.next() * 2000)}`);
    for (let c = 0; c < 2; c++) {
      const status = STATUSES[Math.floor(this.next() * STATUSES.length)]!;
      inc('integrationCalls', status);
      inc('integrationLatency', status, String(latencyBucket(20 + this.next() * 2000)));
    }
    if (index % 4 === 0) inc('urlClicks', DOMAINS[Math.floor(this.next() * DOMAINS.length)]!);
    if (index % 20 === 0) inc('emailsSent');
    if (index % 40 === 0) inc('smsSent');
  }

  deltas(version: string): CountDelta[] {
    return [...this.sums].map(([key, n]) => {
      const [day, metric, a, b] = key.split('\u0000') as [string, Metric, string, string];
      return { day: Number(day), version, metric, a, b, n };
    });
  }
}
