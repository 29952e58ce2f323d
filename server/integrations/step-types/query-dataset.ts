import type { DatasetStepType } from '../step-contract/step-type.ts';

/** Reads a call-on-background dataset by tags and/or radius around a point; answers locally, no call. */
export const queryDataset: DatasetStepType = {
  kind: 'dataset',
  name: 'queryDataset',
  level: 'action',
  description:
    'Finds rows of a dataset the server keeps up to date: those carrying every tag given, those within a distance of a place, or both; nearest first.',
  defaultTiming: 'sync',
  paramsSchema: {
    type: 'object',
    properties: {
      dataset: { type: 'string', minLength: 1 },
      tags: { type: 'array', items: { type: 'string' }, default: [] },
      lat: { type: 'number', minimum: -90, maximum: 90 },
      lon: { type: 'number', minimum: -180, maximum: 180 },
      radiusKm: { type: 'number', exclusiveMinimum: 0 },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
    required: ['dataset'],
    dependentRequired: { radiusKm: ['lat', 'lon'], lat: ['lon', 'radiusKm'], lon: ['lat', 'radiusKm'] },
    additionalProperties: false,
  },
  outputSchema: { type: 'array', items: { type: 'object' } },
  mappings: {
    cards: `[$.{ "title": $string(name ? name : id), "subtitle": distanceKm ? $formatNumber(distanceKm, '0.0') & ' km away' : undefined }]`,
  },
};
