import { isShortWait, reachesOut } from './reaches-out.ts';
import type { Problem } from './problem.ts';
import type { BotDefinition, Step } from './schema.ts';

type Node = `${number}/${number}`;

/**
 * Loops the conversation can go round without waiting for the user that call outside the bot
 * (an integration, email, SMS, a wait under a second) each time: the run budget stops them
 * (settings.maxCallsWithoutInput), but the author most likely forgot an input or an exit.
 * One warning per loop, at its first step.
 */
export function checkInputFreeLoops(definition: BotDefinition): Problem[] {
  const index = new Map<string, number>(definition.dialogs.map((dialog, d) => [dialog.id, d]));
  const edges = new Map<Node, Node[]>();
  definition.dialogs.forEach((dialog, d) =>
    dialog.steps.forEach((step, s) => {
      const stepIndex = (dialogId: string, stepId?: string): Node | undefined => {
        const target = index.get(dialogId);
        if (target === undefined) return undefined;
        const at = stepId === undefined ? 0 : definition.dialogs[target]!.steps.findIndex((x) => x.id === stepId);
        return at < 0 ? undefined : `${target}/${at}`;
      };
      const to = (target: unknown): Node | undefined => {
        if (typeof target === 'string') return stepIndex(dialog.id, target);
        if (target && typeof target === 'object' && 'dialog' in target)
          return stepIndex((target as { dialog: string }).dialog, (target as { step?: string }).step);
        return undefined;
      };
      const following = (): Node | undefined =>
        'next' in step && step.next !== undefined
          ? to(step.next)
          : s + 1 < dialog.steps.length
            ? `${d}/${s + 1}`
            : undefined;
      edges.set(
        `${d}/${s}`,
        successors(step, following, to, stepIndex).filter((n): n is Node => n !== undefined),
      );
    }),
  );

  const problems: Problem[] = [];
  for (const loop of stronglyConnected(edges)) {
    const steps = loop.map((node) => {
      const [d, s] = node.split('/').map(Number) as [number, number];
      return { d, s, step: definition.dialogs[d]!.steps[s]! };
    });
    const selfLoop = loop.length === 1 && (edges.get(loop[0]!) ?? []).includes(loop[0]!);
    if (loop.length === 1 && !selfLoop) continue;
    if (!steps.some(({ step }) => reachesOut(step))) continue;
    const first = steps.sort((a, b) => a.d - b.d || a.s - b.s)[0]!;
    const names = steps.map(({ d, step }) => `${definition.dialogs[d]!.id}/${step.id}`);
    problems.push({
      path: `dialogs[${first.d}].steps[${first.s}]`,
      message: `the steps ${names.join(', ')} form a loop that calls outside the bot without waiting for the user; it stops after settings.maxCallsWithoutInput calls`,
      hint: 'add an input step or a wait of at least 1s to the loop, or a condition that leaves it',
      severity: 'warning',
    });
  }
  return problems;
}

/** Where a step can lead without input from outside; steps that wait for the user lead nowhere here. */
function successors(
  step: Step,
  following: () => Node | undefined,
  to: (t: unknown) => Node | undefined,
  stepIndex: (dialog: string, step?: string) => Node | undefined,
): (Node | undefined)[] {
  switch (step.type) {
    case 'message':
    case 'set':
    case 'event':
    case 'clearUserData':
      return [following()];
    case 'condition':
      return [...step.branches.map((b) => to(b.then)), step.else === undefined ? following() : to(step.else)];
    case 'goto':
      return [stepIndex(step.dialog, step.step)];
    case 'wait': {
      const short = isShortWait(step);
      return [...(step.background ? [following()] : []), ...(short ? [to(step.then)] : [])];
    }
    case 'email':
    case 'sms':
      return [following(), to(step.onError)];
    case 'integration':
      return [
        following(),
        step.onError.startsWith('dialog:') ? stepIndex(step.onError.slice('dialog:'.length)) : undefined,
      ];
    case 'input':
    case 'nlp':
    case 'faq':
    case 'linkChannels':
    case 'end':
      return [];
  }
}

/** Tarjan's algorithm, iterative so a long chain of steps cannot overflow the stack. */
function stronglyConnected(edges: ReadonlyMap<Node, readonly Node[]>): Node[][] {
  let counter = 0;
  const order = new Map<Node, number>();
  const low = new Map<Node, number>();
  const onStack = new Set<Node>();
  const stack: Node[] = [];
  const out: Node[][] = [];
  for (const start of edges.keys()) {
    if (order.has(start)) continue;
    const work: { node: Node; next: number }[] = [{ node: start, next: 0 }];
    order.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!order.has(target)) {
          order.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, order.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === order.get(frame.node)) {
        const component: Node[] = [];
        let member: Node;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        out.push(component);
      }
    }
  }
  return out;
}
