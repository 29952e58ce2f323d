import path from 'node:path';
import { checkDefinition, checkDefinitionFile } from './check-definition.ts';
import { DefinitionError } from '../definition/load.ts';
import { formatProblem, isError, type Problem } from '../definition/problem.ts';
import type { BotDefinition } from '../definition/schema.ts';
import type { PublishMove } from '../engine/recovery.ts';
import { createBotIntegrations } from '../integrations/bot-steps.ts';
import type { IntegrationRuntime, IntegrationRuntimeDeps } from '../integrations/run-integration.ts';
import { BUILT_IN_STEP_TYPES, registryFor } from '../integrations/step-types/registry.ts';
import type { CodeStepType } from '../integrations/step-contract/step-type.ts';
import { prepareFaqMatcher } from '../nlp/faq-matcher.ts';
import { trainIntentClassifier } from '../nlp/intent-classifier.ts';
import type { EmbeddingProvider } from '../ports/embeddings.ts';
import type { IntegrationCaller } from '../ports/integrations.ts';
import type { FaqMatcher, IntentClassifier } from '../ports/understanding.ts';

/** A definition (from its file or a stored version) and its step type modules, read and checked; nothing opened yet. */
export interface BotSource {
  /** BOT_DEFINITION: step type modules are found next to it, whichever version runs. */
  readonly file: string;
  readonly definition: BotDefinition;
  /** The definition as written (before defaults and the environment): what versions hash, export and compare. */
  readonly written: unknown;
  /** The stored version this is; absent until the versions store knows it. */
  readonly version?: { readonly id: string; readonly hash: string };
  /** Where users resting on steps this version no longer has go, as chosen at publish (engine/recovery.ts). */
  readonly moves?: readonly PublishMove[];
  readonly ownStepTypes: readonly CodeStepType[];
  /** What `check` warns of (a template name that may come from the page, …): logged, not refused. */
  readonly warnings: readonly Problem[];
}

/** Everything the server derives from a definition: swapped whole on a reload. */
export interface PreparedBot extends BotSource {
  readonly runtime: IntegrationRuntime;
  readonly caller: IntegrationCaller;
  readonly classifier?: IntentClassifier;
  readonly faq?: FaqMatcher;
}

/**
 * Reads the definition and imports its step type modules (a changed module afresh), with every
 * check `chatbot check` runs. Throws DefinitionError listing every error.
 */
export async function readBot(file: string, env: Readonly<Record<string, string | undefined>>): Promise<BotSource> {
  const checked = await checkDefinitionFile(file, { env });
  if (!checked.definition || !checked.stepTypes)
    throw new DefinitionError(file, checked.problems.filter(isError).map(formatProblem));
  return {
    file,
    definition: checked.definition,
    written: checked.written,
    ownStepTypes: checked.stepTypes,
    warnings: checked.problems,
  };
}

/**
 * A definition as written (a stored version), with every check `chatbot check` runs; step type
 * modules are read next to `file`. Throws DefinitionError naming `label` (e.g. "version v4").
 */
export async function readWritten(
  written: unknown,
  file: string,
  label: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<BotSource> {
  const checked = await checkDefinition(written, file, { env });
  if (!checked.definition || !checked.stepTypes)
    throw new DefinitionError(label, checked.problems.filter(isError).map(formatProblem));
  return { file, definition: checked.definition, written, ownStepTypes: checked.stepTypes, warnings: checked.problems };
}

/**
 * Checks the integration settings and steps against the integration layer (a bad field or a
 * missing secret throws a DefinitionError naming its path) and trains the models. The runtime
 * is not started: the caller starts it once the bot is in service.
 */
export async function prepareBot(
  source: BotSource,
  deps: Omit<IntegrationRuntimeDeps, 'stepTypes'>,
  understanding: { readonly embeddings?: EmbeddingProvider; readonly warn?: (message: string) => void } = {},
): Promise<PreparedBot> {
  const stepTypes = [...source.ownStepTypes];
  // The set the definition's check just compiled (registryFor keeps it): compiling every step
  // type's schemas again took a sixth of a start-up's CPU, which a restart makes widgets wait for.
  const registry = registryFor([...BUILT_IN_STEP_TYPES, ...stepTypes]);
  const { runtime, caller } = createBotIntegrations(source.definition, source.file, { ...deps, stepTypes, registry });
  try {
    const { definition } = source;
    const { locale, synonyms } = definition.settings;
    const classifier =
      definition.intents.length > 0
        ? await trainIntentClassifier(definition.intents, locale, understanding)
        : undefined;
    const faq =
      definition.faq.length > 0
        ? await prepareFaqMatcher(definition.faq, { locale, synonyms, ...understanding })
        : undefined;
    return { ...source, runtime, caller, classifier, faq };
  } catch (error) {
    await runtime.close();
    throw error;
  }
}

/** The files a reload depends on: the definition and its step type modules. */
export function watchedFiles(source: BotSource): string[] {
  const base = path.dirname(path.resolve(source.file));
  return [path.resolve(source.file), ...source.definition.stepTypes.map((entry) => path.resolve(base, entry))];
}
