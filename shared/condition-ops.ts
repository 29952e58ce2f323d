/**
 * The operators a condition step's condition may use (a definition contract): the server's
 * definition schema accepts exactly these, and the studio's condition builder offers them in this
 * order. A plain list, no zod, so the studio web app takes it at no cost.
 */
export const CONDITION_OPS = [
  'equals',
  'notEquals',
  'empty',
  'notEmpty',
  'greater',
  'less',
  'contains',
  'matches',
  'in',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];
