/**
 * Writes a list of JSON trees that share subtrees (the undo history's snapshots: an edit copies only the
 * path to what it changed) as one table of nodes, each shared object written once. So 500 snapshots of a
 * large bot cost one bot plus what the edits changed, not 500 bots, and reading them back shares again.
 *
 * A node is `['o', keys, values]` or `['a', values]`; a value is a JSON primitive or `[id]`, the node of
 * that id in the table (nodes are arrays, so an array value can only be a reference).
 */
export interface SharedTrees {
  readonly nodes: Readonly<Record<number, Node>>;
  readonly roots: readonly Value[];
}

type Value = string | number | boolean | null | readonly [number];
type Node = readonly ['o', readonly string[], readonly Value[]] | readonly ['a', readonly Value[]];

/**
 * Each object's id and its node's JSON text, once written. The history's snapshots are never changed (an
 * edit copies instead), so what was written for an object holds as long as it lives, and writing the history
 * again after the next save costs what that edit added, not the whole bot again: at 2,000 steps the walk,
 * the key lists and the text of every node took 20-70 ms after each autosave.
 */
const ids = new WeakMap<object, number>();
const written = new WeakMap<object, { readonly text: string; readonly children: readonly object[] }>();
let nextId = 0;

/** The SharedTrees of `trees` as JSON text (nodes keyed by id). */
export function writeShared(trees: readonly unknown[]): string {
  const nodes: string[] = [];
  const done = new Set<object>();
  const valueText = (item: unknown, children: object[]): string => {
    // undefined in a list is null, as JSON.stringify writes it.
    if (item === null || typeof item !== 'object') return JSON.stringify(item) ?? 'null';
    let id = ids.get(item);
    if (id === undefined) ids.set(item, (id = nextId++));
    children.push(item);
    return `[${id}]`;
  };
  const nodeOf = (item: object) => {
    const children: object[] = [];
    let text: string;
    if (Array.isArray(item)) text = `["a",[${item.map((child) => valueText(child, children)).join(',')}]]`;
    else {
      const entries = Object.entries(item).filter(([, child]) => child !== undefined);
      const keys = JSON.stringify(entries.map(([key]) => key));
      text = `["o",${keys},[${entries.map(([, child]) => valueText(child, children)).join(',')}]]`;
    }
    return { text, children };
  };
  const write = (item: object): void => {
    if (done.has(item)) return;
    done.add(item);
    let node = written.get(item);
    if (!node) written.set(item, (node = nodeOf(item)));
    nodes.push(`"${ids.get(item)}":${node.text}`);
    for (const child of node.children) write(child);
  };
  const rootObjects: object[] = [];
  const roots = trees.map((tree) => valueText(tree, rootObjects));
  for (const root of rootObjects) write(root);
  return `{"nodes":{${nodes.join(',')}},"roots":[${roots.join(',')}]}`;
}

/** Reads what writeShared wrote; throws on anything else (a kept history from another build is dropped by the caller). */
export function readShared(shared: SharedTrees): unknown[] {
  const built = new Map<number, unknown>();
  const value = (item: Value): unknown => {
    if (!Array.isArray(item)) return item;
    const index = item[0] as number;
    if (built.has(index)) return built.get(index);
    const node = Object.hasOwn(shared.nodes, index) ? shared.nodes[index] : undefined;
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
