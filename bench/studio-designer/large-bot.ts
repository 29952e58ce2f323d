/**
 * A bot of a given size for the designer's benchmark and tests: `dialogs` dialogs holding
 * `steps` steps between them, every step kind the outline and the map draw (messages, inputs
 * saved to user data and variables, conditions branching within and across dialogs, set
 * actions, jumps, integration calls, waits, FAQ answers, ends), and no problem `chatbot check`
 * reports as an error. Deterministic: the same sizes give the same bot.
 */
export function largeBot(
  size: { dialogs: number; steps: number } = { dialogs: 60, steps: 500 },
): Record<string, unknown> {
  const dialogIds = Array.from({ length: size.dialogs }, (_, d) => `topic-${d + 1}`);
  const fields = ['name', 'email', 'plan', 'city', 'orderNumber'];
  const dialogs = dialogIds.map((id, d) => {
    // Spread the steps as evenly as the sizes allow; every dialog ends with an end step.
    const count = Math.floor(size.steps / size.dialogs) + (d < size.steps % size.dialogs ? 1 : 0);
    const steps: Record<string, unknown>[] = [];
    const next = dialogIds[(d + 1) % dialogIds.length]!;
    const far = dialogIds[(d * 7 + 3) % dialogIds.length]!;
    for (let s = 0; s < count - 1; s++) {
      const sid = `step-${s + 1}`;
      const field = fields[(d + s) % fields.length]!;
      switch (s % 8) {
        case 0:
          steps.push({
            id: sid,
            type: 'message',
            text: `Topic ${d + 1}: hello {{name}}, this is step ${s + 1}.`,
            quickReplies: [{ label: 'Go on', payload: 'go on' }],
          });
          break;
        case 1:
          steps.push({ id: sid, type: 'input', prompt: `What is your ${field}?`, saveTo: { userData: field } });
          break;
        case 2:
          steps.push({
            id: sid,
            type: 'condition',
            branches: [
              { when: { variable: field, op: 'notEmpty' }, then: `step-${s + 2}` },
              {
                when: [
                  { variable: 'plan', op: 'equals', value: 'pro' },
                  { variable: 'city', op: 'contains', value: 'burg' },
                ],
                then: { dialog: far },
              },
            ],
            else: { dialog: next },
          });
          break;
        case 3:
          steps.push({
            id: sid,
            type: 'set',
            actions: [{ op: 'set', variable: `answer${d}x${s}`, template: 'Thanks, {{name}}' }],
          });
          break;
        case 4:
          steps.push({
            id: sid,
            type: 'integration',
            integration: 'http',
            params: { method: 'GET', endpoint: 'https://api.example.com/items' },
            output: `items${d}x${s}`,
            onError: `flag:failed${d}x${s}`,
          });
          break;
        case 5:
          steps.push({
            id: sid,
            type: 'message',
            text: 'Pick one.',
            buttons: [
              { kind: 'dialog', label: 'Next topic', dialog: next },
              { kind: 'postback', label: 'Stay', payload: 'stay' },
            ],
          });
          break;
        case 6:
          steps.push({ id: sid, type: 'faq', prompt: 'Ask me anything.', onNoMatch: { dialog: far } });
          break;
        default:
          steps.push({
            id: sid,
            type: 'input',
            prompt: 'Which one?',
            inputType: 'choice',
            choices: [{ label: 'This', then: { dialog: next } }, { label: 'That' }],
            saveTo: { variable: `choice${d}x${s}` },
          });
      }
    }
    steps.push({ id: `step-${count}`, type: 'end' });
    return { id, steps };
  });
  return {
    settings: { id: 'large', name: 'Large bot', startDialog: dialogIds[0], locale: 'en' },
    userDataFields: fields,
    dialogs,
    faq: [{ id: 'hours', questions: ['When are you open?'], answer: 'From 9 to 5.' }],
  };
}
