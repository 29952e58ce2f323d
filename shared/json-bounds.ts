/**
 * Bounds on parsed JSON from outside (socket payloads, HTTP bodies), checked
 * before any recursive work. JSON.parse is iterative, but everything after it
 * (schema validation, JSON.stringify, structuredClone, redaction, templating,
 * storage) recurses, so one value nested thousands deep would overflow the
 * stack. The walk here keeps its own stack and stops at the first excess.
 */

/** Deepest nesting accepted anywhere (the value itself is depth 0; `{"a":{"b":1}}` has depth 2). */
export const MAX_JSON_DEPTH = 32;

/** Most values (objects, arrays, strings, numbers, …) in one socket payload. */
export const MAX_JSON_NODES = 10_000;

export interface JsonBounds {
  readonly maxDepth: number;
  readonly maxNodes: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxNodes: MAX_JSON_NODES };

/** Which bound a value broke; null when it is within both. */
export type JsonBoundsExcess = { readonly limit: 'depth' | 'nodes'; readonly max: number } | null;

/**
 * Walks a value without recursion and reports the first bound it breaks.
 * Cost is bounded by `maxNodes` whatever the input, so it is safe on hostile data.
 */
export function checkJsonBounds(value: unknown, bounds: JsonBounds = DEFAULT_JSON_BOUNDS): JsonBoundsExcess {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let nodes = 0;
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (++nodes > bounds.maxNodes) return { limit: 'nodes', max: bounds.maxNodes };
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= bounds.maxDepth) return { limit: 'depth', max: bounds.maxDepth };
    const children = Array.isArray(current) ? current : Object.values(current);
    // Children past the node budget cannot be accepted anyway: stop before pushing them all.
    if (nodes + values.length + children.length > bounds.maxNodes) return { limit: 'nodes', max: bounds.maxNodes };
    for (const child of children) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return null;
}

/** The sentence a caller reads when a value breaks a bound. */
export function describeJsonExcess(excess: NonNullable<JsonBoundsExcess>): string {
  return excess.limit === 'depth'
    ? `it is nested deeper than ${excess.max} levels`
    : `it holds more than ${excess.max} values`;
}
