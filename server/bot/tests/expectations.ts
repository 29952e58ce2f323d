import { isDeepStrictEqual } from 'node:util';
import type { BotEvent, BotMessage } from '../../../shared/protocol.ts';
import type { Line, TestStep } from './test-file.ts';

/** How a bot message reads in a test: its text, or its kind and what a person sees of it. */
export function lineOf(message: BotMessage): string {
  switch (message.type) {
    case 'text':
      return message.text;
    case 'image':
      return `[image] ${message.alt}`;
    case 'carousel':
      return `[carousel] ${message.cards.map((c) => c.title).join(' | ')}`;
    case 'notice':
      return `[notice] ${message.text}`;
  }
}

/** Labels of a message's buttons and quick replies, in the order shown. */
export function labelsOf(message: BotMessage | undefined): string[] {
  if (!message) return [];
  if (message.type === 'text')
    return [...(message.buttons ?? []).map((b) => b.label), ...(message.quickReplies ?? []).map((q) => q.label)];
  if (message.type === 'carousel') return message.cards.flatMap((c) => (c.buttons ?? []).map((b) => b.label));
  return [];
}

/** What one step left: the bot's messages and page events during it, and the user's record after it. */
export interface Observed {
  readonly messages: readonly BotMessage[];
  /** The latest bot message of the conversation so far (buttons are read from it). */
  readonly latest: BotMessage | undefined;
  readonly events: readonly BotEvent[];
  readonly variables: Readonly<Record<string, unknown>>;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly at: string | null;
}

/** One expectation that did not hold, as lines a person reads: what was expected against what happened. */
export interface Mismatch {
  readonly what: string;
  readonly lines: readonly string[];
}

/** Compares a step's expectations with what happened; empty when all hold. */
export function compare(step: TestStep, seen: Observed): Mismatch[] {
  const out: Mismatch[] = [];
  if (step.bot) {
    const actual = seen.messages.map(lineOf);
    if (!linesMatch(step.bot, actual)) out.push({ what: 'bot said', lines: diffLines(step.bot, actual) });
  }
  if (step.buttons) {
    const actual = labelsOf(seen.latest);
    if (!isDeepStrictEqual(step.buttons, actual)) out.push({ what: 'buttons', lines: diffLines(step.buttons, actual) });
  }
  for (const kind of ['variables', 'userData'] as const) {
    const expected = step[kind];
    if (!expected) continue;
    const lines: string[] = [];
    for (const [key, value] of Object.entries(expected)) {
      const actual = seen[kind][key];
      // JSON cannot say "not set": null stands for it too (a cleared field has no value at all).
      if (isDeepStrictEqual(value, actual) || (value === null && actual === undefined)) continue;
      lines.push(`- ${key}: ${show(value)}`, `+ ${key}: ${actual === undefined ? '(not set)' : show(actual)}`);
    }
    if (lines.length > 0) out.push({ what: kind, lines });
  }
  if (step.events) {
    const expected = step.events;
    const matches =
      expected.length === seen.events.length &&
      expected.every(
        (e, i) =>
          e.name === seen.events[i]?.name &&
          Object.entries(e.payload ?? {}).every(([k, v]) => isDeepStrictEqual(v, seen.events[i]?.payload?.[k])),
      );
    if (!matches) {
      out.push({
        what: 'events to the page',
        lines: diffLines(
          expected.map((e) => (e.payload ? `${e.name} ${show(e.payload)}` : e.name)),
          seen.events.map((e, i) => (expected[i]?.payload ? `${e.name} ${show(e.payload)}` : e.name)),
        ),
      });
    }
  }
  if (step.at !== undefined && step.at !== seen.at) {
    out.push({
      what: 'rests at',
      lines: [`- ${step.at ?? '(conversation ended)'}`, `+ ${seen.at ?? '(conversation ended)'}`],
    });
  }
  return out;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function lineMatches(expected: Line | string, actual: string): boolean {
  return typeof expected === 'string' ? expected === actual : new RegExp(expected.matches).test(actual);
}

function linesMatch(expected: readonly Line[], actual: readonly string[]): boolean {
  return expected.length === actual.length && expected.every((e, i) => lineMatches(e, actual[i] ?? ''));
}

/**
 * A line diff (longest common subsequence): "  " for a line as expected, "- " for an expected
 * line the bot did not say, "+ " for one it said instead. Lines are short lists, so O(n·m) is fine.
 */
export function diffLines(expected: readonly (Line | string)[], actual: readonly string[]): string[] {
  const n = expected.length;
  const m = actual.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = lineMatches(expected[i]!, actual[j]!)
        ? lcs[i + 1]![j + 1]! + 1
        : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  const text = (line: Line | string) => (typeof line === 'string' ? show(line) : `/${line.matches}/`);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && lineMatches(expected[i]!, actual[j]!)) {
      out.push(`  ${show(actual[j])}`);
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      out.push(`- ${text(expected[i]!)}`);
      i++;
    } else {
      out.push(`+ ${show(actual[j])}`);
      j++;
    }
  }
  if (n === 0 && m === 0) out.push('  (nothing)');
  return out;
}
