// The engine's contract as the use cases see it: what a turn takes, returns and asks the world to do. It is
// written in turn/, beside the step kinds' shared helpers, so that the step kinds and the runner both import it
// from below; this is the package's edge for everything outside the engine.
export type * from './turn/types.ts';
