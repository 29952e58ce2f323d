import type { Choice } from './rendered-parts.ts';

/**
 * The choice a typed answer names: its title or label (any case, spaces trimmed), else its number.
 * Over several messages' choices, the latest message's counts (numbers start at 1 in each).
 */
export function choiceByAnswer(text: string, choices: readonly Choice[]): Choice | undefined {
  const answer = text.trim().toLowerCase();
  if (answer === '') return undefined;
  const named =
    choices.findLast((c) => c.title.toLowerCase() === answer) ??
    choices.findLast((c) => c.label.trim().toLowerCase() === answer);
  if (named) return named;
  const number = /^(\d{1,4})\.?$/.exec(answer)?.[1];
  return number === undefined ? undefined : choices.findLast((c) => c.number === Number(number));
}
