import type { z } from 'zod';
import { formatPath } from './path.ts';
import { suggestion, type Problem } from './problem.ts';

/**
 * Turns zod's issues into problems a bot author can act on: the offending key or value named,
 * what is allowed, and the closest known name. A union (a target, a condition, a step) reports
 * the branch the author most likely meant instead of zod's bare "Invalid input".
 */
export function zodProblems(issues: readonly z.core.$ZodIssue[], input: unknown, schema: z.ZodType): Problem[] {
  const out: Problem[] = [];
  for (const issue of issues) explain(issue, [], input, schema, out);
  const seen = new Set<string>();
  return out.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type Path = readonly PropertyKey[];
type Node = { _zod: { def: Record<string, unknown> & { type: string } } };

function explain(issue: z.core.$ZodIssue, base: Path, input: unknown, root: z.ZodType, out: Problem[]): void {
  const path = [...base, ...issue.path];
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const known = knownKeys(root, input, path);
      for (const key of issue.keys) {
        out.push({
          path: formatPath([...path, key]),
          message: `unknown key "${key}"`,
          hint: known.length > 0 ? suggestion(key, known, 'known keys') : undefined,
        });
      }
      return;
    }
    case 'invalid_value': {
      const allowed = issue.values.map((v) => String(v));
      if (allowed.length === 1) {
        out.push({
          path: formatPath(path),
          message: `must be ${JSON.stringify(issue.values[0])}${value === undefined ? '' : ` (got ${shown(value)})`}`,
        });
        return;
      }
      out.push({
        path: formatPath(path),
        message: value === undefined ? 'is required' : `${shown(value)} is not allowed`,
        hint:
          typeof value === 'string'
            ? withAllowed(suggestion(value, allowed, 'allowed'), allowed)
            : `allowed: ${allowed.map((a) => `"${a}"`).join(', ')}`,
      });
      return;
    }
    case 'invalid_union': {
      if (
        (issue as { note?: string }).note === 'No matching discriminator' ||
        (issue.errors.length === 0 && 'options' in issue)
      ) {
        const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
        const key = (issue as { discriminator?: string }).discriminator ?? 'type';
        const at = path[path.length - 1] === key ? path : [...path, key];
        const got = valueAt(input, at);
        out.push({
          path: formatPath(at),
          message: got === undefined ? `is required` : `unknown ${key} ${shown(got)}`,
          hint:
            typeof got === 'string'
              ? withAllowed(suggestion(got, options, 'allowed'), options)
              : `allowed: ${options.map((o) => `"${o}"`).join(', ')}`,
        });
        return;
      }
      const branches = issue.errors;
      // Every branch refuses the same extra key (e.g. saveTo with "userdata"): one problem with a suggestion from all branches.
      const extra = branches.map(
        (b) =>
          b.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) as
            z.core.$ZodIssueUnrecognizedKeys | undefined,
      );
      if (branches.length > 0 && extra.every((e) => e !== undefined)) {
        explain(extra[0]!, path, input, root, out);
        return;
      }
      const best = likeliestBranch(branches);
      if (best) {
        for (const inner of best) explain(inner, path, input, root, out);
        return;
      }
      out.push({
        path: formatPath(path),
        message: value === undefined ? 'is required' : `${shown(value)} matches none of the allowed forms`,
        hint: forms(branches),
      });
      return;
    }
    case 'invalid_type': {
      if (value === undefined) out.push({ path: formatPath(path), message: 'is required' });
      else out.push({ path: formatPath(path), message: `must be ${article(issue.expected)} (got ${kind(value)})` });
      return;
    }
    case 'too_small':
    case 'too_big': {
      const bound = String(issue.code === 'too_small' ? issue.minimum : issue.maximum);
      const size =
        issue.origin === 'string' ? ' characters' : issue.origin === 'array' || issue.origin === 'set' ? ' items' : '';
      // A custom message (e.g. "a dialog needs at least one step") already says it best.
      if (!/^Too (small|big)/.test(issue.message)) out.push({ path: formatPath(path), message: issue.message });
      else
        out.push({
          path: formatPath(path),
          message: `must be ${issue.code === 'too_small' ? 'at least' : 'at most'} ${bound}${size}${value === undefined ? '' : typeof value === 'number' ? ` (got ${value})` : ''}`,
        });
      return;
    }
    default:
      out.push({ path: formatPath(path), message: issue.message });
  }
}

/** The branch whose value had the right shape at its top: the one the author meant. None when several or none did. */
function likeliestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  const shaped = branches.filter(
    (issues) => !issues.some((i) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_union')),
  );
  if (shaped.length === 1) return shaped[0];
  if (shaped.length > 1) return [...shaped].sort((a, b) => a.length - b.length)[0];
  return undefined;
}

function forms(branches: readonly (readonly z.core.$ZodIssue[])[]): string | undefined {
  const expected = branches.flatMap((b) =>
    b
      .filter((i) => i.path.length === 0 && i.code === 'invalid_type')
      .map((i) => (i as z.core.$ZodIssueInvalidType).expected),
  );
  return expected.length > 0 ? `give ${[...new Set(expected)].map(article).join(' or ')}` : undefined;
}

function withAllowed(hint: string, allowed: readonly string[]): string {
  return hint.startsWith('did you mean') ? `${hint} Allowed: ${allowed.map((a) => `"${a}"`).join(', ')}` : hint;
}

function article(type: string): string {
  if (type === 'object') return 'an object';
  if (type === 'array') return 'a list';
  if (type === 'int') return 'a whole number';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${shown(value)}`;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function valueAt(input: unknown, path: Path): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The keys the schema allows for the object at `path`; every branch's when a union leaves it open. */
function knownKeys(root: z.ZodType, input: unknown, path: Path): string[] {
  const keys = new Set<string>();
  for (const node of nodesAt(root as unknown as Node, input, path, 0)) {
    const shape = node._zod.def.shape as Record<string, unknown> | undefined;
    if (node._zod.def.type === 'object' && shape) for (const key of Object.keys(shape)) keys.add(key);
  }
  return [...keys];
}

function nodesAt(node: Node, input: unknown, path: Path, depth: number): Node[] {
  const def = node._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
      return nodesAt(def.innerType as Node, input, path, depth);
    case 'pipe':
      return nodesAt(def.in as Node, input, path, depth);
    case 'union': {
      const options = def.options as Node[];
      const discriminator = def.discriminator as string | undefined;
      const here = valueAt(input, path.slice(0, depth)) as Record<string, unknown> | undefined;
      const chosen =
        discriminator && here && typeof here === 'object'
          ? options.filter((o) => {
              const literal = (o._zod.def.shape as Record<string, Node> | undefined)?.[discriminator]?._zod.def;
              return (literal?.values as unknown[] | undefined)?.includes(here[discriminator]);
            })
          : options;
      return (chosen.length > 0 ? chosen : options).flatMap((o) => nodesAt(o, input, path, depth));
    }
  }
  if (depth === path.length) return [node];
  const key = path[depth];
  if (def.type === 'object') {
    const child = (def.shape as Record<string, Node>)[String(key)];
    return child ? nodesAt(child, input, path, depth + 1) : [];
  }
  if (def.type === 'array') return nodesAt(def.element as Node, input, path, depth + 1);
  if (def.type === 'record') return nodesAt(def.valueType as Node, input, path, depth + 1);
  return [];
}
