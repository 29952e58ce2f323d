/**
 * What every part of the OpenAPI document says the same way: a reference to a component, a JSON
 * answer, the catalogue's error answer, a required body, and the answers any management operation
 * may give besides its own.
 */
export type Obj = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/${name}` });
export const json = (schema: Obj, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
export const error = (description: string) => json(ref('schemas/Error'), description);

/** A request body that must be sent, by media type. */
export const requiredBody = (content: Obj) => ({ required: true, content });

/** The answers any management operation may give besides its own. */
export const managementErrors = {
  '401': ref('responses/Unauthorized'),
  '429': ref('responses/RateLimited'),
  '500': ref('responses/Internal'),
};

/** The paging, time filters and formats of the record exports, which the audit trail's export takes alike. */
export const exportParameters = [
  ref('parameters/fromTimestamp'),
  ref('parameters/toTimestamp'),
  ref('parameters/limit'),
  ref('parameters/cursor'),
  ref('parameters/format'),
  ref('parameters/bom'),
  ref('parameters/csvFormulaGuard'),
];
