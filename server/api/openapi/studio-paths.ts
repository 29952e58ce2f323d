/**
 * The studio's part of the OpenAPI document: every route of the map (shared/studio-api.ts) with
 * its words. A route added to the map without words here does not typecheck, so none goes
 * undocumented.
 */
import type { StudioRouteName } from '../../../shared/studio-routes.ts';
import { channelWords } from './studio-channel-words.ts';
import { insightsWords } from './studio-insights-words.ts';
import { mapPaths } from './studio-map-operations.ts';
import type { Obj } from './operation-parts.ts';
import type { OperationWords } from './studio-openapi-parts.ts';
import { peopleWords } from './studio-people-words.ts';
import { versionsWords } from './studio-versions-words.ts';

const words: { readonly [N in StudioRouteName]: OperationWords } = {
  ...peopleWords,
  ...versionsWords,
  ...insightsWords,
  ...channelWords,
};

/** The studio's paths, and the schemas they name (for the document's components). */
export const studioPaths = (): { paths: Obj; schemas: Obj } => mapPaths(words);
