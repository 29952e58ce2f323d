/** A UTC day in a query: the studio API's rule (shared/studio-api.ts), which the OpenAPI document's pattern says too. */
export { dayParam } from '../../../shared/studio-api.ts';

/** Epoch ms of the start of a day that passed `dayParam`. */
export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
