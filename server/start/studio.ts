import path from 'node:path';
import type { RequestHandler } from 'express';
import { studioPages } from '../studio/http/studio-pages.ts';

/** The studio's surfaces on the HTTP side: its pages (and, as its rooms arrive, its API). */
export function studioSurfaces(options: { readonly root: string }): RequestHandler[] {
  return [studioPages(path.join(options.root, 'dist', 'studio'))];
}
