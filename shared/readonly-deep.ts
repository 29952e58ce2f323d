/**
 * A type made read-only all the way down: what a wire shape inferred from a zod schema (mutable
 * by default) becomes, so that the server's own read-only values can be answered as they are and
 * the web app cannot change what it was sent.
 */
export type ReadonlyDeep<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyDeep<U>[]
  : T extends (...args: never[]) => unknown
    ? T
    : T extends object
      ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
      : T;
