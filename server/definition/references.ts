import type { Target } from './common.ts';
import type { BotDefinition, Step } from './schema.ts';

export { pathKey } from './path.ts';

/**
 * Checks what the schema cannot: unique ids, that every target exists, and the rules between fields. One line per problem.
 * Integration steps' type, service and parameters are the integration layer's to check (main.ts, at start-up).
 */
export function checkReferences(definition: BotDefinition): string[] {
  const problems: string[] = [];
  const dialogs = new Map<string, Set<string>>();

  definition.dialogs.forEach((dialog, d) => {
    if (dialogs.has(dialog.id)) problems.push(`dialogs[${d}].id: dialog "${dialog.id}" is defined twice`);
    const steps = new Set<string>();
    dialog.steps.forEach((step, s) => {
      if (steps.has(step.id)) {
        problems.push(`dialogs[${d}].steps[${s}].id: step "${step.id}" is defined twice in dialog "${dialog.id}"`);
      }
      steps.add(step.id);
    });
    if (!dialogs.has(dialog.id)) dialogs.set(dialog.id, steps);
  });

  if (!dialogs.has(definition.settings.startDialog)) {
    problems.push(`settings.startDialog: no dialog "${definition.settings.startDialog}"`);
  }
  const { recoveryDialog } = definition.settings;
  if (recoveryDialog !== undefined && !dialogs.has(recoveryDialog))
    problems.push(`settings.recoveryDialog: no dialog "${recoveryDialog}"`);

  const dialogExists = (at: string, dialogId: string) => {
    if (!dialogs.has(dialogId)) problems.push(`${at}: no dialog "${dialogId}"`);
  };
  const checkTarget = (at: string, ownDialog: string, target: Target | undefined) => {
    if (target === undefined) return;
    if (typeof target === 'string') {
      if (!dialogs.get(ownDialog)?.has(target)) problems.push(`${at}: no step "${target}" in dialog "${ownDialog}"`);
      return;
    }
    const steps = dialogs.get(target.dialog);
    if (!steps) problems.push(`${at}.dialog: no dialog "${target.dialog}"`);
    else if (target.step !== undefined && !steps.has(target.step)) {
      problems.push(`${at}.step: no step "${target.step}" in dialog "${target.dialog}"`);
    }
  };

  const fields = new Set(definition.userDataFields);
  const isField = (at: string, name: string) => {
    if (!fields.has(name)) problems.push(`${at}: "${name}" is not in userDataFields`);
  };

  definition.dialogs.forEach((dialog, d) => {
    dialog.steps.forEach((step, s) => {
      const at = `dialogs[${d}].steps[${s}]`;
      if ('next' in step && step.next !== undefined) checkTarget(`${at}.next`, dialog.id, step.next);
      checkStep(step, at, dialog.id, { problems, checkTarget, dialogExists, isField, definition });
    });
  });

  const intentIds = new Set<string>();
  definition.intents.forEach((intent, i) => {
    if (intentIds.has(intent.id)) problems.push(`intents[${i}].id: intent "${intent.id}" is defined twice`);
    intentIds.add(intent.id);
    dialogExists(`intents[${i}].dialog`, intent.dialog);
  });
  const faqIds = new Set<string>();
  definition.faq.forEach((pair, i) => {
    if (faqIds.has(pair.id)) problems.push(`faq[${i}].id: FAQ pair "${pair.id}" is defined twice`);
    faqIds.add(pair.id);
  });
  definition.pageEvents.forEach((event, i) => dialogExists(`pageEvents[${i}].dialog`, event.dialog));

  return problems;
}

interface Checks {
  readonly problems: string[];
  readonly definition: BotDefinition;
  checkTarget(at: string, ownDialog: string, target: Target | undefined): void;
  dialogExists(at: string, dialogId: string): void;
  isField(at: string, name: string): void;
}

/** A step's own rules, and the dialogs, steps and fields it names. */
function checkStep(step: Step, at: string, dialogId: string, c: Checks): void {
  const { problems } = c;
  switch (step.type) {
    case 'message':
      checkMessage(step, at, c);
      return;
    case 'input':
      checkInput(step, at, dialogId, c);
      return;
    case 'condition':
      checkCondition(step, at, dialogId, c);
      return;
    case 'set':
      checkSet(step, at, c);
      return;
    case 'goto':
      c.checkTarget(`${at}`, dialogId, { dialog: step.dialog, step: step.step });
      return;
    case 'wait':
      c.checkTarget(`${at}.then`, dialogId, step.then);
      return;
    case 'clearUserData':
      step.fields?.forEach((field, i) => c.isField(`${at}.fields[${i}]`, field));
      return;
    case 'email':
    case 'sms':
      c.checkTarget(`${at}.onError`, dialogId, step.onError);
      return;
    case 'linkChannels':
      c.checkTarget(`${at}.onOtherText`, dialogId, step.onOtherText);
      return;
    case 'nlp':
      if (c.definition.intents.length === 0) problems.push(`${at}: an nlp step needs intents; the definition has none`);
      c.checkTarget(`${at}.onNoMatch`, dialogId, step.onNoMatch);
      return;
    case 'faq':
      if (c.definition.faq.length === 0) problems.push(`${at}: a faq step needs FAQ pairs; the definition has none`);
      c.checkTarget(`${at}.onNoMatch`, dialogId, step.onNoMatch);
      return;
    case 'integration':
      if (step.onError.startsWith('dialog:')) c.dialogExists(`${at}.onError`, step.onError.slice('dialog:'.length));
      if (step.errorText !== undefined && step.onError !== 'fatal')
        problems.push(`${at}.errorText: only said when onError is "fatal"`);
      if (step.maxAttempts !== undefined && step.timing === 'sync')
        problems.push(`${at}.maxAttempts: only an async step is retried`);
      return;
    case 'event':
    case 'end':
      return;
  }
}

type StepOf<K extends Step['type']> = Extract<Step, { type: K }>;

function checkMessage(step: StepOf<'message'>, at: string, c: Checks): void {
  const { problems } = c;
  const buttons = (where: string, list: readonly { kind: string; dialog?: string }[] | undefined) =>
    list?.forEach((b, i) => {
      if (b.kind === 'dialog' && b.dialog !== undefined) c.dialogExists(`${where}[${i}].dialog`, b.dialog);
    });
  if (step.text === undefined && step.image === undefined && step.cards === undefined && step.cardsFrom === undefined) {
    problems.push(`${at}: a message needs text, an image, cards or cardsFrom`);
  }
  if (step.cards !== undefined && step.cardsFrom !== undefined)
    problems.push(`${at}.cardsFrom: give cards or cardsFrom, not both`);
  if (step.noCardsText !== undefined && step.cardsFrom === undefined)
    problems.push(`${at}.noCardsText: only a message with cardsFrom says it`);
  if (step.text === undefined && (step.buttons !== undefined || step.quickReplies !== undefined)) {
    problems.push(`${at}.text: buttons and quick replies belong to a text; add one`);
  }
  buttons(`${at}.buttons`, step.buttons);
  step.cards?.forEach((card, i) => buttons(`${at}.cards[${i}].buttons`, card.buttons));
}

function checkInput(step: StepOf<'input'>, at: string, dialogId: string, c: Checks): void {
  const { problems } = c;
  if (step.inputType === 'regex') {
    if (step.pattern === undefined) problems.push(`${at}.pattern: an input of type "regex" needs a pattern`);
    else regexProblem(`${at}.pattern`, step.pattern, problems);
  }
  if (step.inputType === 'choice' && step.choices === undefined)
    problems.push(`${at}.choices: an input of type "choice" needs choices`);
  if (step.inputType !== 'choice' && step.choices !== undefined)
    problems.push(`${at}.choices: only an input of type "choice" has choices`);
  step.choices?.forEach((choice, i) => c.checkTarget(`${at}.choices[${i}].then`, dialogId, choice.then));
  c.checkTarget(`${at}.onMaxRetries`, dialogId, step.onMaxRetries);
  if (step.saveTo && 'userData' in step.saveTo) c.isField(`${at}.saveTo.userData`, step.saveTo.userData);
}

function checkCondition(step: StepOf<'condition'>, at: string, dialogId: string, c: Checks): void {
  const { problems } = c;
  step.branches.forEach((branch, b) => {
    const conditions = Array.isArray(branch.when) ? branch.when : [branch.when];
    conditions.forEach((cond, i) => {
      const where = Array.isArray(branch.when) ? `${at}.branches[${b}].when[${i}]` : `${at}.branches[${b}].when`;
      const needsValue = cond.op !== 'empty' && cond.op !== 'notEmpty';
      if (needsValue && cond.value === undefined) problems.push(`${where}.value: "${cond.op}" needs a value`);
      if (cond.op === 'in' && cond.value !== undefined && !Array.isArray(cond.value))
        problems.push(`${where}.value: "in" needs a list`);
      if (cond.op === 'matches' && typeof cond.value === 'string') regexProblem(`${where}.value`, cond.value, problems);
      if ((cond.op === 'greater' || cond.op === 'less') && cond.value !== undefined && typeof cond.value !== 'number') {
        problems.push(`${where}.value: "${cond.op}" needs a number`);
      }
    });
    c.checkTarget(`${at}.branches[${b}].then`, dialogId, branch.then);
  });
  c.checkTarget(`${at}.else`, dialogId, step.else);
}

function checkSet(step: StepOf<'set'>, at: string, c: Checks): void {
  const { problems } = c;
  step.actions.forEach((action, i) => {
    const where = `${at}.actions[${i}]`;
    if ((action.variable === undefined) === (action.userData === undefined)) {
      problems.push(`${where}: name exactly one of "variable" or "userData"`);
    }
    if (action.userData !== undefined) c.isField(`${where}.userData`, action.userData);
    const hasValue = action.value !== undefined || action.template !== undefined;
    if (action.op === 'unset' && hasValue) problems.push(`${where}: "unset" takes no value or template`);
    if (action.op !== 'unset' && !hasValue) problems.push(`${where}: "${action.op}" needs a value or a template`);
    if (action.value !== undefined && action.template !== undefined)
      problems.push(`${where}: give a value or a template, not both`);
  });
}

function regexProblem(at: string, source: string, problems: string[]): void {
  try {
    new RegExp(source, 'u');
  } catch (error) {
    problems.push(`${at}: not a valid regular expression (${(error as Error).message})`);
  }
}
