import { dialogsOf, listReferences, stepsOf, type Reference, type ReferenceRole } from './references.ts';
import type { DefinitionDoc, StepAt } from './types.ts';

/**
 * The flow as a graph of steps: where each step can lead. The map draws it; the variables
 * panel walks it backwards to know which variables can exist at a step.
 */

export interface FlowEdge {
  readonly from: StepAt;
  /** Absent when the reference names nothing that exists (check reports it). */
  readonly to?: StepAt;
  readonly role: ReferenceRole | 'follow';
  readonly ref?: Reference;
}

const key = (at: StepAt) => `${at.dialog}/${at.step}`;

/** Every edge: references (jumps, branches, buttons, …) and the fall-through to the following step. */
export function flowEdges(definition: DefinitionDoc): FlowEdge[] {
  const dialogs = dialogsOf(definition);
  const index = new Map<string, { dialog: number; steps: Map<string, number> }>();
  dialogs.forEach((dialog, d) => {
    if (!index.has(dialog.id))
      index.set(dialog.id, { dialog: d, steps: new Map(stepsOf(dialog).map((s, i) => [s.id, i])) });
  });
  const resolve = (dialog: string, step: string | undefined): StepAt | undefined => {
    const found = index.get(dialog);
    if (!found) return undefined;
    const at = step === undefined ? 0 : found.steps.get(step);
    return at === undefined || stepsOf(dialogs[found.dialog]!).length === 0
      ? undefined
      : { dialog: found.dialog, step: at };
  };
  const edges: FlowEdge[] = [];
  for (const ref of listReferences(definition)) {
    if (!ref.from) continue;
    const to = resolve(ref.dialog, ref.step);
    edges.push({ from: ref.from, ...(to ? { to } : {}), role: ref.role, ref });
  }
  dialogs.forEach((dialog, d) => {
    const steps = stepsOf(dialog);
    steps.forEach((step, s) => {
      const stops = step.type === 'goto' || step.type === 'end' || (typeof step.next === 'string' && step.next !== '');
      if (!stops && s + 1 < steps.length)
        edges.push({ from: { dialog: d, step: s }, to: { dialog: d, step: s + 1 }, role: 'follow' });
    });
  });
  return edges;
}

/** The steps from which `at` can be reached (not `at` itself unless it lies on a loop). */
export function stepsLeadingTo(definition: DefinitionDoc, at: StepAt, edges = flowEdges(definition)): StepAt[] {
  const incoming = new Map<string, StepAt[]>();
  for (const edge of edges) {
    if (!edge.to) continue;
    const list = incoming.get(key(edge.to)) ?? [];
    list.push(edge.from);
    incoming.set(key(edge.to), list);
  }
  const seen = new Set<string>();
  const out: StepAt[] = [];
  const queue = [...(incoming.get(key(at)) ?? [])];
  while (queue.length > 0) {
    const step = queue.pop()!;
    if (seen.has(key(step))) continue;
    seen.add(key(step));
    out.push(step);
    queue.push(...(incoming.get(key(step)) ?? []));
  }
  return out;
}

/** Edges between dialogs and jumps within one (not the plain fall-through): what the map draws. */
export function mapEdges(definition: DefinitionDoc, edges = flowEdges(definition)): FlowEdge[] {
  return edges.filter(
    (edge) =>
      edge.role !== 'follow' &&
      !(edge.role === 'next' && edge.to?.dialog === edge.from.dialog && edge.to.step === edge.from.step + 1),
  );
}
