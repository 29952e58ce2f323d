/** Dense vector helpers for sentence embeddings (all L2-normalised, so a dot product is a cosine). */

export function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += (v[i] as number) * (v[i] as number);
  if (norm === 0) return v;
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * scale;
  return v;
}

export function dense(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
