const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as "10m"; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
