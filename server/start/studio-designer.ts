import { editorSchema } from '../bot/editor-schema.ts';
import { SCHEMA_PATH } from '../definition/json-schema.ts';
import { PRESET_STEP_TYPES } from '../integrations/presets/index.ts';
import { BUILT_IN_STEP_TYPES } from '../integrations/step-types/registry.ts';
import type { Clock } from '../ports/clock.ts';
import type { PresenceBoard } from '../ports/presence.ts';
import {
  designerCatalogue,
  type DesignerCatalogue,
  type DescribedStepType,
} from '../studio-server/designer/catalogue.ts';
import type { DesignerDeps } from '../studio-server/designer/designer-routes.ts';
import type { BotService } from '../bot/bot-service.ts';

/**
 * The designer's dependencies: the catalogue of the bot in service (built once, again after a
 * publish or reload swaps in other step types) and the presence board.
 */
export function designerDeps(options: {
  readonly bot: BotService;
  readonly presence: PresenceBoard;
  readonly clock: Clock;
  readonly baseUrl: () => string;
  readonly presets?: readonly DescribedStepType[];
}): DesignerDeps {
  let catalogue: DesignerCatalogue | undefined;
  // The registry holds the presets among the built-in types; the palette lists them under a heading of their own.
  const presets = options.presets ?? PRESET_STEP_TYPES;
  options.bot.onSwap(() => {
    catalogue = undefined;
  });
  return {
    catalogue: () =>
      (catalogue ??= designerCatalogue(
        editorSchema({ ownStepTypes: options.bot.current.ownStepTypes, id: `${options.baseUrl()}${SCHEMA_PATH}` }),
        {
          builtIn: BUILT_IN_STEP_TYPES.filter((type) => !presets.includes(type)),
          presets,
          own: options.bot.current.ownStepTypes,
        },
      )),
    presence: options.presence,
    now: () => options.clock.now(),
  };
}
