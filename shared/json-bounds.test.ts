import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, checkJsonBounds } from './json-bounds.ts';

/** Builds `[[[…]]]` n deep from text, as a hostile client would send it. */
const nested = (n: number) => JSON.parse('['.repeat(n) + ']'.repeat(n)) as unknown;
const objects = (n: number) => JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown;

describe('checkJsonBounds', () => {
  it('when a value is nested a million deep, then it is refused for depth without overflowing the stack', () => {
    expect(checkJsonBounds(nested(1_000_000))).toEqual({ limit: 'depth', max: MAX_JSON_DEPTH });
  });

  it('when objects nest exactly to the documented depth, then they pass, and one level more does not', () => {
    expect(checkJsonBounds(objects(MAX_JSON_DEPTH))).toBeNull();
    expect(checkJsonBounds(objects(MAX_JSON_DEPTH + 1))).toEqual({ limit: 'depth', max: MAX_JSON_DEPTH });
  });

  it('when a value is wide rather than deep, then the node count stops it', () => {
    expect(checkJsonBounds(new Array(20_000).fill(0))).toEqual({ limit: 'nodes', max: 10_000 });
    expect(checkJsonBounds({ rows: new Array(5000).fill({ a: 1 }) })).toEqual({ limit: 'nodes', max: 10_000 });
    expect(checkJsonBounds(new Array(9_999).fill(0))).toBeNull();
  });

  it('when a caller sets its own bounds, then those apply', () => {
    expect(checkJsonBounds({ a: [1, 2, 3] }, { maxDepth: 1, maxNodes: 100 })).toEqual({ limit: 'depth', max: 1 });
    expect(checkJsonBounds({ a: [1, 2, 3] }, { maxDepth: 5, maxNodes: 4 })).toEqual({ limit: 'nodes', max: 4 });
    expect(checkJsonBounds({ a: [1, 2, 3] }, { maxDepth: 2, maxNodes: 5 })).toBeNull();
  });
});
