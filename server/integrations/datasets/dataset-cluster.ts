/**
 * How background datasets stay alike on every node of a cluster (server/cluster wires it).
 * The store holds the rows; this only says when to read them again and who pulls.
 */
export interface DatasetCluster {
  /** Tells the other nodes that the dataset changed in the store (after a pull or a push here). */
  announce(name: string): void;
  /** Called with a dataset's name when another node changed it. */
  onChange(listener: (name: string) => void): void;
  /** True when this node may run the periodic pull of `name` now: one node per interval does. */
  lease(name: string, ms: number): Promise<boolean>;
}
