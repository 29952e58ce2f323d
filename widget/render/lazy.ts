/**
 * Renderers few conversations need (a carousel, a picture, markdown beyond plain text) are
 * built into chunks of their own (`widget.<name>.<hash>.js` through the script tag, served as the
 * rest of the widget is: same origin, immutable, precompressed), so the download every page pays
 * for stays small. A chunk loads the first time a message needs it; meanwhile, and if it
 * cannot load, the message shows in a plain form, and the element draws it again once it is there.
 */

/** A chunk loaded on first use. */
export interface LazyModule<M> {
  /** The module once loaded; undefined while it loads (then `onReady` runs once it is there); null if it failed to load. */
  get(onReady: () => void): M | undefined | null;
}

const inFlight = new Set<Promise<unknown>>();

/** Settles once every chunk asked for so far has loaded or failed (the element's updateComplete waits for it). */
export function chunksSettled(): Promise<unknown> {
  return Promise.all([...inFlight]);
}

/** `load` must be a literal `() => import('./x.ts')`, so the bundler sees the chunk. */
export function lazyModule<M>(name: string, load: () => Promise<M>): LazyModule<M> {
  let module: M | null | undefined;
  let loading: Promise<void> | undefined;
  const waiting = new Set<() => void>();
  return {
    get(onReady) {
      if (module !== undefined) return module;
      waiting.add(onReady);
      if (!loading) {
        loading = load().then(
          (loaded) => void (module = loaded),
          (error: unknown) => {
            // Not retried: the message stays readable in its plain form, and a retry loop would cost the page more.
            console.error(
              `ChatWidget: the "${name}" part of the widget could not be loaded, so such messages show in a plain form.`,
              error,
            );
            module = null;
          },
        );
        const done = loading.then(() => {
          inFlight.delete(done);
          for (const ready of waiting) ready();
          waiting.clear();
        });
        inFlight.add(done);
      }
      return undefined;
    },
  };
}
