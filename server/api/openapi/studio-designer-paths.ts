/**
 * The designer's part of the studio's API in the OpenAPI document (server/studio-server/designer/
 * designer-routes.ts), built from the map: only the words are written here.
 */
import { mapPaths, type OperationWords } from './studio-map-operations.ts';
import type { Obj } from './studio-openapi-parts.ts';

const tag = 'Studio: versions';
const role = 'readBot (any role)';

const words = {
  designerCatalogue: {
    tag,
    role,
    summary: 'The step types and the schema the designer is made from',
    description:
      "The editor JSON Schema of the bot definition and every step type the bot in service knows (built in, presets and the bot's own), with its parameters, mappings and default timing: the designer's palette and forms are drawn from it.",
    answer: 'The catalogue (not cached: a publish can change the bot’s own step types).',
  },
  designerPresence: {
    tag,
    role,
    summary: 'Say the designer is open; who else has it open',
    description:
      'A beat (the designer sends one every 20 s) saying the caller has the designer open, on `dialog` if given; the answer lists the others whose last beat is under 45 s old, and on which dialog.',
    answer: 'The others who have the designer open.',
  },
} as const satisfies Record<string, OperationWords>;

export const studioDesignerPaths = (): Obj => mapPaths(words);
