/**
 * Calibration of one bot's scores at load: from scores the bot's own model gave in
 * cross-validation (texts of its intents it did not train on, whose intent is known; texts of
 * intents held out of training; the locale's off-topic sentences), the threshold the bot runs with
 * when its author set none, and a monotone map from the raw score to the chance that the intent
 * named is right (Platt scaling), so that a 0.7 means about the same on a bot with ten examples an
 * intent and on one with a hundred. docs/understanding.md has the figures.
 */
export interface ScoredSample {
  readonly score: number;
  /** Whether the intent (or FAQ entry) named was the right one. */
  readonly right: boolean;
}

export interface CalibrationSamples {
  /** Texts about the bot's own intents, not trained on. */
  readonly inScope: readonly ScoredSample[];
  /** Texts about the bot's domain it has no intent for: intents (or FAQ entries) held out of training. */
  readonly heldOut: readonly number[];
  /** The locale's off-topic sentences. */
  readonly background: readonly number[];
}

/** What the bot runs with, and what cross-validation expects of it. */
export interface Calibration {
  /** On the calibrated scale: the lowest score that routes (or answers) when the author set no threshold. */
  readonly threshold: number;
  /** Platt scaling of the raw score: σ(slope · logit(raw) + intercept); a raw 0 stays 0. */
  readonly slope: number;
  readonly intercept: number;
  /** Cross-validated shares at the threshold (null when there was too little to cross-validate). */
  readonly expected: ExpectedRates | null;
}

export interface ExpectedRates {
  /** In-scope texts whose most probable intent was right (threshold ignored). */
  readonly topOne: number;
  /** In-scope texts routed to the right intent at the threshold. */
  readonly inScopeRouted: number;
  /** Texts about held-out intents turned away (null: the bot has too few intents to hold any out). */
  readonly heldOutRefused: number | null;
  /** Off-topic sentences turned away. */
  readonly backgroundRefused: number;
}

/** Shares of out-of-scope texts the threshold turns away, chosen on one public set and reported on the other (bench/nlp-understanding.ts). */
export interface CalibrationTargets {
  readonly heldOutRefused: number;
  readonly backgroundRefused: number;
  /** The same when the bot has too few intents to hold any out: then the off-topic sentences are all there is to go by. */
  readonly backgroundAloneRefused: number;
  /** Bounds on the raw threshold: a few dozen samples must not put it where no right answer or every text passes. */
  readonly minRaw: number;
  readonly maxRaw: number;
}

/** Used when there is nothing to calibrate on (an empty bot): the fixed scores' own default. */
export const UNCALIBRATED: Calibration = { threshold: 0.7, slope: 1, intercept: 0, expected: null };

const clamp = (x: number): number => Math.min(1 - 1e-4, Math.max(1e-4, x));
const logit = (x: number): number => Math.log(clamp(x) / (1 - clamp(x)));

const IDENTITY = { slope: 1, intercept: 0 } as const;

/** The calibrated score of a raw one (the identity map leaves it as it is). */
export function calibrated(raw: number, calibration: Pick<Calibration, 'slope' | 'intercept'>): number {
  if (raw <= 0) return 0;
  if (calibration.slope === 1 && calibration.intercept === 0) return raw;
  return Math.round(10_000 / (1 + Math.exp(-(calibration.slope * logit(raw) + calibration.intercept)))) / 10_000;
}

/**
 * The smallest raw cut that turns away at least `share` of `scores` (a score turns away when it
 * is below the cut); 0 when there are none.
 */
export function cutFor(scores: readonly number[], share: number): number {
  if (scores.length === 0) return 0;
  const sorted = [...scores].sort((a, b) => a - b);
  const k = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
  return (sorted[k] as number) + 1e-4;
}

/** `rescale: false` keeps the raw scale (the FAQ's, where 1 means an exact repeat) and only places the threshold. */
export function calibrate(
  samples: CalibrationSamples,
  targets: CalibrationTargets,
  options: { readonly rescale?: boolean; readonly fallback?: number } = {},
): Calibration {
  if (samples.inScope.length === 0 && samples.heldOut.length === 0 && samples.background.length === 0)
    return { ...UNCALIBRATED, threshold: options.fallback ?? UNCALIBRATED.threshold };
  const cut = Math.min(
    targets.maxRaw,
    Math.max(
      targets.minRaw,
      cutFor(samples.heldOut, targets.heldOutRefused),
      cutFor(
        samples.background,
        samples.heldOut.length > 0 ? targets.backgroundRefused : targets.backgroundAloneRefused,
      ),
    ),
  );
  const { slope, intercept } = options.rescale === false ? IDENTITY : fitPlatt(samples.inScope);
  const share = (n: number, of: number): number => (of === 0 ? 0 : n / of);
  return {
    // Rounded down, so every raw score at or above the cut still passes after its own rounding.
    threshold: Math.floor((options.rescale === false ? cut : calibrated(cut, { slope, intercept })) * 10_000) / 10_000,
    slope,
    intercept,
    expected: {
      topOne: share(samples.inScope.filter((s) => s.right).length, samples.inScope.length),
      inScopeRouted: share(samples.inScope.filter((s) => s.right && s.score >= cut).length, samples.inScope.length),
      heldOutRefused:
        samples.heldOut.length === 0
          ? null
          : share(samples.heldOut.filter((s) => s < cut).length, samples.heldOut.length),
      backgroundRefused: share(samples.background.filter((s) => s < cut).length, samples.background.length),
    },
  };
}

/**
 * Logistic regression of "right" on the logit of the raw score (Newton's method, a weak prior
 * towards the identity so a handful of samples cannot bend it far). Raw zeros carry no
 * information on the scale and are left out. The slope stays positive: the map keeps the order.
 */
export function fitPlatt(samples: readonly ScoredSample[]): { slope: number; intercept: number } {
  const points = samples.filter((s) => s.score > 0).map((s) => ({ x: logit(s.score), y: s.right ? 1 : 0 }));
  const prior = 1;
  // Negative log-likelihood plus prior · ((a − 1)² + b²) / 2.
  const loss = (a: number, b: number): number =>
    points.reduce(
      (sum, { x, y }) => {
        const z = a * x + b;
        // log(1 + e^z) − y·z, written so a large |z| cannot overflow.
        return sum + Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))) - y * z;
      },
      (prior * ((a - 1) ** 2 + b ** 2)) / 2,
    );
  let a = 1;
  let b = 0;
  for (let iteration = 0; iteration < 50 && points.length > 0; iteration++) {
    let ga = prior * (a - 1);
    let gb = prior * b;
    let haa = prior;
    let hab = 0;
    let hbb = prior;
    for (const { x, y } of points) {
      const p = 1 / (1 + Math.exp(-(a * x + b)));
      const w = p * (1 - p);
      ga += (p - y) * x;
      gb += p - y;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (det <= 1e-12) break;
    let da = (hbb * ga - hab * gb) / det;
    let db = (haa * gb - hab * ga) / det;
    // Newton's step, halved while it does not lower the loss (a plain step can overshoot on few points).
    const before = loss(a, b);
    while (loss(a - da, b - db) > before && Math.abs(da) + Math.abs(db) > 1e-9) {
      da /= 2;
      db /= 2;
    }
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-7) break;
  }
  return { slope: Math.round(Math.max(0.05, a) * 10_000) / 10_000, intercept: Math.round(b * 10_000) / 10_000 };
}
