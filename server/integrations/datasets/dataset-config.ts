import { z } from 'zod';

const fieldPath = z.string().regex(/^[\w$-]+(\.[\w$-]+)*$/, 'must be a field name or a dotted path such as location.lat');

/** A call-on-background dataset (spec 1.2): pulled, pushed or signalled, and read locally. */
export const datasetConfigSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z][\w-]{0,63}$/, 'must be a name of letters, digits, "_" or "-"'),
    /** Where periodic and signalled pulls read from. None: the dataset is filled by push only. */
    source: z
      .object({
        /** A configured service (base URL + auth); `url` is then a path under it. */
        service: z.string().optional(),
        url: z.string().min(1),
        /** JSONata selecting the list of rows from the answer; default: the answer is the list. */
        rows: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** Periodic pull interval; unset = no periodic pull. At least 10 s so a source is not hammered. */
    refreshIntervalSec: z.number().int().min(10).optional(),
    /** Where each raw row keeps its id, tags, latitude and longitude. */
    fields: z
      .object({
        id: fieldPath.default('id'),
        tags: fieldPath.default('tags'),
        lat: fieldPath.default('lat'),
        lon: fieldPath.default('lon'),
      })
      .strict()
      .default({ id: 'id', tags: 'tags', lat: 'lat', lon: 'lon' }),
  })
  .strict();

export type DatasetConfig = z.infer<typeof datasetConfigSchema>;
