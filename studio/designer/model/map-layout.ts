import { Graph, layout } from '@dagrejs/dagre';
import { mapEdges, type FlowEdge } from './graph.ts';
import { dialogsOf, stepsOf } from './references.ts';
import type { DefinitionDoc } from './types.ts';

/**
 * The map's layout, computed from the definition alone (no positions are stored in it): each
 * dialog is a box listing its steps, boxes are placed by dagre (a layered layout, left to
 * right), and each jump is drawn from the row of the step that makes it to the row it leads to.
 * Dagre places the dialogs along the first way each is reached from the start dialog (a
 * breadth-first tree), not along every jump: so a dialog's column is its distance from the
 * start, and a 60-dialog bot lays out in tens of milliseconds rather than the second that all of
 * its 300 jumps (most of them long, each a chain of dummy nodes) cost, at a sixth of the width.
 */

export const NODE_WIDTH = 280;
export const HEADER_HEIGHT = 36;
export const ROW_HEIGHT = 28;

export interface MapNode {
  readonly dialog: number;
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface MapEdge extends FlowEdge {
  /** Start and end points, and whether it stays within one dialog (drawn as an arc on its right). */
  readonly from: FlowEdge['from'];
  readonly sx: number;
  readonly sy: number;
  readonly tx: number;
  readonly ty: number;
  readonly inner: boolean;
}

export interface MapLayout {
  readonly nodes: MapNode[];
  readonly edges: MapEdge[];
  readonly width: number;
  readonly height: number;
}

export function layoutMap(definition: DefinitionDoc): MapLayout {
  const dialogs = dialogsOf(definition);
  const graph = new Graph({ multigraph: false });
  graph.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 90, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  dialogs.forEach((dialog, d) =>
    graph.setNode(String(d), {
      width: NODE_WIDTH,
      height: HEADER_HEIGHT + Math.max(1, stepsOf(dialog).length) * ROW_HEIGHT,
    }),
  );
  const flow = mapEdges(definition);
  for (const [from, to] of reachTree(definition, flow, dialogs.length)) graph.setEdge(String(from), String(to));
  layout(graph);
  const nodes: MapNode[] = dialogs.map((dialog, d) => {
    const box = graph.node(String(d)) as { x: number; y: number; width: number; height: number };
    return {
      dialog: d,
      id: dialog.id,
      x: box.x - box.width / 2,
      y: box.y - box.height / 2,
      width: box.width,
      height: box.height,
    };
  });
  const rowY = (dialog: number, step: number | undefined) =>
    nodes[dialog]!.y + (step === undefined ? HEADER_HEIGHT / 2 : HEADER_HEIGHT + step * ROW_HEIGHT + ROW_HEIGHT / 2);
  const edges: MapEdge[] = flow.flatMap((edge) => {
    if (!edge.to) return [];
    const source = nodes[edge.from.dialog]!;
    const target = nodes[edge.to.dialog]!;
    const inner = edge.to.dialog === edge.from.dialog;
    return [
      {
        ...edge,
        sx: source.x + source.width,
        sy: rowY(edge.from.dialog, edge.from.step),
        tx: inner ? target.x + target.width : target.x,
        ty: rowY(edge.to.dialog, edge.to.step),
        inner,
      },
    ];
  });
  const graphBox = graph.graph() as { width?: number; height?: number };
  return { nodes, edges, width: graphBox.width ?? 0, height: graphBox.height ?? 0 };
}

/** The first way each dialog is reached: breadth first from the start dialog, then from each dialog not reached yet, in order. */
function reachTree(definition: DefinitionDoc, flow: readonly FlowEdge[], count: number): [number, number][] {
  const next = new Map<number, number[]>();
  for (const edge of flow) {
    if (!edge.to || edge.to.dialog === edge.from.dialog) continue;
    const list = next.get(edge.from.dialog) ?? [];
    list.push(edge.to.dialog);
    next.set(edge.from.dialog, list);
  }
  const start = dialogsOf(definition).findIndex((d) => d.id === definition.settings?.startDialog);
  const order = [...(start >= 0 ? [start] : []), ...Array.from({ length: count }, (_, i) => i)];
  const seen = new Set<number>();
  const tree: [number, number][] = [];
  for (const root of order) {
    if (seen.has(root)) continue;
    seen.add(root);
    const queue = [root];
    while (queue.length > 0) {
      const dialog = queue.shift()!;
      for (const target of next.get(dialog) ?? []) {
        if (seen.has(target)) continue;
        seen.add(target);
        tree.push([dialog, target]);
        queue.push(target);
      }
    }
  }
  return tree;
}
