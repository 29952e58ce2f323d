import path from 'node:path';
import { projectRoot } from '../../paths.ts';

/** Where `npm run provision` puts the default local encoder (scripts/provision-models.mjs); MODELS_DIR moves the parent folder. */
export const DEFAULT_MODEL_NAME = 'all-minilm-l6-v2-int8';
export const DEFAULT_MODELS_DIR = path.join(projectRoot(), '.cache', 'models');
export const DEFAULT_MODEL_DIR = path.join(DEFAULT_MODELS_DIR, DEFAULT_MODEL_NAME);
