import { strandedBy } from '../bot/stranded-by.ts';
import { DefinitionError } from '../definition/load.ts';

export const COMPARE_USAGE =
  'compare <old.json> <new.json>   list where users resting on the old definition would be moved by the new one; exit 1 when any would';

/** `chatbot compare old new`: the positions a redeploy would strand, and where recovery takes each; resolves with the exit code. */
export async function compareCommand(
  args: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    out.write(`Usage: chatbot ${COMPARE_USAGE}\n`);
    return 0;
  }
  if (args.length !== 2 || args.some((a) => a.startsWith('-'))) {
    out.write(`Name the running definition and the new one. Usage: chatbot ${COMPARE_USAGE}\n`);
    return 2;
  }
  const [oldFile, newFile] = args as [string, string];
  let compared;
  try {
    compared = await strandedBy(oldFile, newFile);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    out.write(`${error.message}\n`);
    return 1;
  }
  const { stranded, after } = compared;
  if (stranded.length === 0) {
    out.write(`No user would be stranded: every step users can rest on in ${oldFile} is in ${newFile}.\n`);
    return 0;
  }
  const how =
    after.settings.recovery === 'dialogStart'
      ? 'settings.recovery "dialogStart"'
      : 'settings.recovery "recoveryDialog"';
  out.write(
    `${stranded.length} position${stranded.length === 1 ? '' : 's'} would be stranded; a user resting there is moved by their next message (${how}):\n`,
  );
  for (const { from, to } of stranded)
    out.write(
      `  ${from.dialogId}.${from.stepId} → ${to ? `${to.dialogId}.${to.stepId}` : '(nowhere: the conversation ends)'}\n`,
    );
  return 1;
}
