/**
 * Writes a list of JSON trees that share subtrees (the undo history's snapshots: an edit copies only the
 * path to what it changed) as one table of nodes, each shared object written once. So 500 snapshots of a
 * large bot cost one bot plus what the edits changed, not 500 bots, and reading them back shares again.
 *
 * A node is `['o', keys, values]` or `['a', values]`; a value is a JSON primitive or `[index]`, a node of
 * the table (nodes are arrays, so an array value can only be a reference).
 */
export interface SharedTrees {
  readonly nodes: readonly Node[];
  readonly roots: readonly Value[];
}

type Value = string | number | boolean | null | readonly [number];
type Node = readonly ['o', readonly string[], readonly Value[]] | readonly ['a', readonly Value[]];

export function writeShared(trees: readonly unknown[]): SharedTrees {
  const nodes: Node[] = [];
  const seen = new Map<object, number>();
  const value = (item: unknown): Value => {
    if (item === null || typeof item !== 'object') return item as Value;
    const known = seen.get(item);
    if (known !== undefined) return [known];
    // The index is taken before the children are written, so a node's children come after it.
    const index = nodes.push(['a', []]) - 1;
    seen.set(item, index);
    if (Array.isArray(item)) nodes[index] = ['a', item.map(value)];
    else {
      const entries = Object.entries(item).filter(([, child]) => child !== undefined);
      nodes[index] = ['o', entries.map(([key]) => key), entries.map(([, child]) => value(child))];
    }
    return [index];
  };
  return { nodes, roots: trees.map(value) };
}

/** Reads what writeShared wrote; throws on anything else (a kept history from another build is dropped by the caller). */
export function readShared(shared: SharedTrees): unknown[] {
  const built = new Map<number, unknown>();
  const value = (item: Value): unknown => {
    if (!Array.isArray(item)) return item;
    const index = item[0] as number;
    if (built.has(index)) return built.get(index);
    const node = shared.nodes[index];
    if (!node) throw new Error(`no node ${index}`);
    if (node[0] === 'a') {
      const list: unknown[] = [];
      built.set(index, list);
      for (const child of node[1]) list.push(value(child));
      return list;
    }
    const record: Record<string, unknown> = {};
    built.set(index, record);
    // defineProperty: a key named __proto__ stays a key, as JSON.parse keeps it.
    node[1].forEach((key, i) =>
      Object.defineProperty(record, key, {
        value: value(node[2][i]!),
        enumerable: true,
        writable: true,
        configurable: true,
      }),
    );
    return record;
  };
  return shared.roots.map(value);
}
