/** The logging the use cases need: structured fields first, then a sentence. */
export interface Logger {
  /** Where an operator looks when chasing a problem (LOG_LEVEL=debug); silent otherwise. Optional so small test loggers need not write it. */
  debug?(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}
