import { z } from 'zod';

/**
 * A UTC day in a query, YYYY-MM-DD, that exists on the calendar: Date.parse rolls "2026-09-31"
 * over to October 1st, so the day is read back and compared, and a day that is not there is
 * refused instead of answered for another one. The pattern in the OpenAPI document says the same.
 */
export const dayParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((s) => {
    const ms = Date.parse(`${s}T00:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === s;
  }, 'must be a real date')
  // Nothing is stored before 1970 (times are epoch milliseconds), and a range reaching back past year 0
  // would name days ISO 8601 writes with a sign ("-000001-12-03"), which no date field takes.
  .refine((s) => s >= '1970-01-01', 'must be 1970-01-01 or later');

/** Epoch ms of the start of a day that passed `dayParam`. */
export const dayStartMs = (day: string): number => Date.parse(`${day}T00:00:00Z`);
