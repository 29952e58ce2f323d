import type { BotDefinition } from './schema.ts';

/** Checks what the schema cannot: unique ids and that every target exists. Returns one line per problem. */
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

  const fields = new Set(definition.userDataFields);
  definition.dialogs.forEach((dialog, d) => {
    const own = dialogs.get(dialog.id);
    dialog.steps.forEach((step, s) => {
      const at = `dialogs[${d}].steps[${s}]`;
      if ('next' in step && step.next !== undefined && !own?.has(step.next)) {
        problems.push(`${at}.next: no step "${step.next}" in dialog "${dialog.id}"`);
      }
      if (step.type === 'goto') {
        const target = dialogs.get(step.dialog);
        if (!target) problems.push(`${at}.dialog: no dialog "${step.dialog}"`);
        else if (step.step !== undefined && !target.has(step.step)) {
          problems.push(`${at}.step: no step "${step.step}" in dialog "${step.dialog}"`);
        }
      }
      if (step.type === 'input' && 'userData' in step.saveTo && !fields.has(step.saveTo.userData)) {
        problems.push(`${at}.saveTo.userData: "${step.saveTo.userData}" is not in userDataFields`);
      }
    });
  });

  return problems;
}
