import { z } from 'zod';

const fieldPath = z
  .string()
  .regex(/^[\w$-]+(\.[\w$-]+)*$/, 'must be a field name or a dotted path such as location.lat');

/** A call-on-background dataset (spec 1.2): pulled, pushed or signalled, and read locally. */
export const datasetConfigSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z][\w-]{0,63}$/, 'must be a name of letters, digits, "_" or "-"')
      .describe('The name steps read the dataset by.'),
    /** Where periodic and signalled pulls read from. None: the dataset is filled by push only. */
    source: z
      .object({
        /** A configured service (base URL + auth); `url` is then a path under it. */
        service: z
          .string()
          .optional()
          .describe('The service the rows come from; the address is then a path under its base URL.'),
        url: z.string().min(1).describe('Where the rows are read: a path under the service, or a whole address.'),
        /** JSONata selecting the list of rows from the answer; default: the answer is the list. */
        rows: z
          .string()
          .min(1)
          .optional()
          .describe('A JSONata expression picking the list of rows from the answer; unset, the answer is the list.'),
      })
      .strict()
      .optional()
      .describe('Where the rows are pulled from; unset, they are pushed to the bot.'),
    /** Periodic pull interval; unset = no periodic pull. At least 10 s so a source is not hammered. */
    refreshIntervalSec: z
      .number()
      .int()
      .min(10)
      .optional()
      .describe('Seconds between two pulls (at least 10); unset, no periodic pull.'),
    /** Where each raw row keeps its id, tags, latitude and longitude. */
    fields: z
      .object({
        id: fieldPath.default('id').describe('Where a row keeps its id.'),
        tags: fieldPath.default('tags').describe('Where a row keeps its tags.'),
        lat: fieldPath.default('lat').describe('Where a row keeps its latitude.'),
        lon: fieldPath.default('lon').describe('Where a row keeps its longitude.'),
      })
      .strict()
      .default({ id: 'id', tags: 'tags', lat: 'lat', lon: 'lon' })
      .describe('Where each row keeps its id, tags, latitude and longitude (a field name or a dotted path).'),
  })
  .strict();

export type DatasetConfig = z.infer<typeof datasetConfigSchema>;
