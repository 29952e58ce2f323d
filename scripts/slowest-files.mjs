// The slowest test files of a run, from Vitest's JSON reports: `npm test` prints the ten slowest at
// the end, so a file that grows shows in every log (CI has a budget: .ci/run).
import path from 'node:path';

/** Each file of a Vitest JSON report as { file, seconds } (its own wall time: first test start to end). */
export function fileDurations(report, root) {
  return (report.testResults ?? [])
    .filter((result) => Number.isFinite(result.startTime) && Number.isFinite(result.endTime))
    .map((result) => ({ file: path.relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 }));
}

/** The `count` slowest as printable lines, slowest first. */
export function slowestFiles(durations, count) {
  return [...durations]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, count)
    .map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
}
