/** Types of supported-node.mjs (plain JavaScript: it is the first thing an old Node runs). */

/** The Node CI runs the whole suite on, and the one fetched for an older machine. */
export const LTS: string;

/** `engines.node` ("^22.16.0 || ^24.0.0 || ^26.0.0") as [major, minor, patch] lower bounds, one per tested line. */
export function testedLines(engines: string): [number, number, number][];

/** What to do on Node `version` ("v22.3.0") given `engines`. */
export function verdict(version: string, engines: string): 'run' | 'warn-newer' | 'warn-untested' | 'fetch';

/** The fetched Node's bin folder, fetching it into .cache first when missing. */
export function fetchedNodeBin(version?: string): string;
