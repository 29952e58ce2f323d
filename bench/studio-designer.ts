// The designer at the size the issue names: a bot of 500 steps in 60 dialogs
// (bench/studio-designer/large-bot.ts), in Chromium, against the built server on the embedded
// store, signed in as the owner. Prints, beside each goal:
// - interactive: from navigation to the outline of the start dialog drawn with its "Add step"
//   button enabled (fresh browser context, so a cold cache), median of the runs;
// - keystroke: from a key's keydown in a step's text field to the next frame after the designer
//   re-rendered (measured in the page), median and worst of the keys typed, and of the first key of
//   each page apart (the page's first edit); for the worst, what else
//   the page did meanwhile (the studio's requests sent or answered, long animation frames and their scripts).
//   Twice, in alternating runs: in a browser whose frames are tied to the display (60 Hz), where each key
//   also waits for the next frame (up to 16.7 ms, which no page can go under), and in one whose frames are
//   free (--disable-gpu-vsync --disable-frame-rate-limit: a frame is drawn as soon as there is something
//   to draw), where what is left is the page's own cost of a key. The keystroke goals are read against the
//   frames-free figure. Beside each, the same keys in a bare text field on an empty page in the same
//   browser, measured after each size: the browser's floor (a few ms with frames free, up to a frame tied);
// - problems: from the key that makes a template name a misspelt variable to the Problems tab
//   counting it (a check still under way finishing, the wait for the page to idle, the request and the redraw), median;
// - map: from a click on the Map tab to every dialog's node drawn, median;
// - undo and redo: from Ctrl+Z (Ctrl+Shift+Z) after the typing to the frame after the re-render, median and worst;
// - keeping the undo history in the tab's session storage after each autosave (the designer's user
//   timing): the first of a page (the whole bot is written), then the later ones (what the edits added),
//   and the characters the storage then holds;
// - all of it at four times the size (2,000 steps in 200 dialogs), and on a 10-step bot measured in
//   the same run as the reference (what the machine's state adds), each beside its goal;
// - the first screen (sign-in): the scripts it loads as sent (Brotli) and as gzip, and navigation
//   to its form, median; the studio's JavaScript in all, raw and gzip.
// Asserts nothing (a benchmark, not a test).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser.ts';
import { designerServer, signedInPage } from '../e2e/studio-designer-helpers.ts';
import { largeBot } from './studio-designer/large-bot.ts';
import { KEEP_HISTORY_MEASURE } from '../studio/designer/state/designer-state.ts';

const RUNS = Number(process.env.BENCH_DESIGNER_RUNS ?? 5);
const KEYS = 20;
/** Frames drawn as soon as there is something to draw, not at the display's next refresh. */
const FRAMES_FREE = ['--disable-gpu-vsync', '--disable-frame-rate-limit'];

if (!existsSync('dist/server/main.js') || !existsSync('dist/studio/index.html'))
  spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const ms = (value: number) => `${Math.round(value)} ms`;

function studioScript(): { raw: number; gzip: number } {
  const dir = 'dist/studio/assets';
  let raw = 0;
  let gzip = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.js'))) {
    const bytes = readFileSync(path.join(dir, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

/** Navigation to an outline that takes input: the start dialog's heading and its "Add step" button. */
async function interactive(page: Page, url: string): Promise<number> {
  const started = performance.now();
  await page.goto(`${url}/studio/designer`);
  await page.getByRole('heading', { name: 'Steps of topic-1' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Add step', exact: true }).waitFor({ state: 'visible', timeout: 60_000 });
  return performance.now() - started;
}

/** The worst keystroke of a run, and what else the page did while it waited (requests and long frames). */
interface WorstKey {
  readonly ms: number;
  readonly index: number;
  readonly during: string;
}

/** Keydown to the frame after the designer's re-render, for each key, measured in the page; and the worst key's company. */
async function keystrokes(page: Page): Promise<{ times: number[]; worst: WorstKey }> {
  await page
    .getByRole('button', { name: /^Message step-1\b/ })
    .first()
    .click();
  const field = page.getByRole('textbox', { name: 'Text', exact: true });
  await field.click();
  await field.press('End');
  await listenForKeys(page);
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.press('x');
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(200);
  return { times: await keyTimes(page, 'x'), worst: await worstKey(page) };
}

/** Records, for each key pressed from now on, keydown to the next frame after it (and the long frames meanwhile). */
const listenForKeys = (page: Page) =>
  page.evaluate(() => {
    const times: { key: string; ms: number; start: number }[] = [];
    (window as unknown as { keyTimes: { key: string; ms: number; start: number }[] }).keyTimes = times;
    // Frames over 50 ms, with the scripts that ran in them: what held the worst key up, if it was the page.
    const frames: PerformanceEntry[] = [];
    (window as unknown as { longFrames: PerformanceEntry[] }).longFrames = frames;
    new PerformanceObserver((list) => frames.push(...list.getEntries())).observe({ type: 'long-animation-frame' });
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Control' || event.key === 'Shift') return;
        const start = event.timeStamp;
        const key = `${event.ctrlKey ? 'Ctrl+' : ''}${event.shiftKey ? 'Shift+' : ''}${event.key.toLowerCase()}`;
        // Lit renders in a microtask after the input event; the frame after that shows the result.
        requestAnimationFrame(() => setTimeout(() => times.push({ key, ms: performance.now() - start, start }), 0));
      },
      { capture: true },
    );
  });

/**
 * The same keys, measured the same way, in a bare text field on an empty page: no script reacts to
 * them, so what is measured is the browser's own floor (mostly the wait for its next frame, up to one
 * frame at 60 Hz), which no designer change can go under.
 */
async function bareKeystrokes(browser: Browser): Promise<number[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.setContent('<!doctype html><title>Bare field</title><label>Text <input></label>');
    const field = page.getByRole('textbox', { name: 'Text' });
    await field.click();
    await listenForKeys(page);
    for (let i = 0; i < KEYS; i++) {
      await page.keyboard.press('x');
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(200);
    return await keyTimes(page, 'x');
  } finally {
    await context.close();
  }
}

/**
 * The worst of the typed keys, with the studio's requests sent or answered while it waited (the
 * problems check, an autosave, presence) and the long animation frames it fell in, with their scripts.
 */
const worstKey = (page: Page): Promise<WorstKey> =>
  page.evaluate(() => {
    const measured = window as unknown as {
      keyTimes: { key: string; ms: number; start: number }[];
      longFrames: (PerformanceEntry & { scripts?: { invoker: string; duration: number }[] })[];
    };
    const keys = measured.keyTimes.filter((k) => k.key === 'x');
    let worst = keys[0]!;
    for (const k of keys) if (k.ms > worst.ms) worst = k;
    const end = worst.start + worst.ms;
    const during: string[] = [];
    for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
      if (!entry.name.includes('/studio/api/') || entry.responseEnd < worst.start - 20 || entry.startTime > end)
        continue;
      const route = new URL(entry.name).pathname.replace('/studio/api', '');
      const sent = entry.startTime >= worst.start - 20 ? 'sent' : 'under way';
      during.push(`${route} ${sent}${entry.responseEnd <= end ? ' and answered' : ''}`);
    }
    for (const frame of measured.longFrames) {
      if (frame.startTime > end || frame.startTime + frame.duration < worst.start) continue;
      const scripts = (frame.scripts ?? []).map((s) => `${s.invoker} ${Math.round(s.duration)} ms`);
      during.push(
        `a ${Math.round(frame.duration)} ms frame${scripts.length > 0 ? ` (${scripts.join(', ')})` : ' (no script)'}`,
      );
    }
    return { ms: worst.ms, index: keys.indexOf(worst), during: during.join('; ') || 'no request, no long frame' };
  });

const keyTimes = (page: Page, key: string) =>
  page.evaluate(
    (wanted) =>
      (window as unknown as { keyTimes: { key: string; ms: number }[] }).keyTimes
        .filter((k) => k.key === wanted)
        .map((k) => k.ms),
    key,
  );

/** Ctrl+Z and Ctrl+Shift+Z, a few times each, after the typing (one undo step): keydown to the frame after the re-render. */
async function undoRedo(page: Page): Promise<{ undo: number[]; redo: number[] }> {
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Control+z');
    await page.waitForTimeout(100);
    await page.keyboard.press('Control+Shift+z');
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(200);
  return { undo: await keyTimes(page, 'Ctrl+z'), redo: await keyTimes(page, 'Ctrl+Shift+z') };
}

/** The sign-in page in a fresh context: navigation to its form, and the scripts it loaded with their bytes as sent and as gzip. */
async function firstScreen(
  browser: Browser,
  url: string,
): Promise<{ ms: number; sent: number; encoding: string; gzip: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const files: { name: string; bytes: number; encoding: string }[] = [];
  page.on('response', (response) => {
    const at = new URL(response.url()).pathname;
    if (at.startsWith('/studio/assets/'))
      files.push({
        name: at.slice('/studio/assets/'.length),
        bytes: Number(response.headers()['content-length']),
        encoding: response.headers()['content-encoding'] ?? 'identity',
      });
  });
  const started = performance.now();
  await page.goto(`${url}/studio/`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor({ timeout: 30_000 });
  const took = performance.now() - started;
  await context.close();
  const gzip = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join('dist/studio/assets', file.name)), { level: 9 }).length,
    0,
  );
  return {
    ms: took,
    sent: files.reduce((sum, file) => sum + file.bytes, 0),
    encoding: [...new Set(files.map((file) => file.encoding))].join('+'),
    gzip,
  };
}

/** Typing the last brace of a misspelt variable ("{{emial}}") to the Problems tab counting one more. */
async function problems(page: Page): Promise<number> {
  const tab = page.getByRole('tab', { name: /^Problems/ });
  const count = async () => Number(/\((\d+)\)/.exec((await tab.textContent()) ?? '')?.[1] ?? NaN);
  // Settle: the check of the keys typed before, then the count this run starts from.
  await page.waitForTimeout(500);
  const before = await count();
  const field = page.getByRole('textbox', { name: 'Text', exact: true });
  await field.press('End');
  await page.keyboard.type(' {{emial}');
  const started = performance.now();
  await page.keyboard.press('}');
  // In the page: no named functions inside (tsx would wrap them in a helper the page lacks); the
  // studio's elements render in open shadow roots, walked with a stack.
  await page.waitForFunction(
    (expected) => {
      const roots: (Document | ShadowRoot)[] = [document];
      let counted = NaN;
      while (roots.length > 0) {
        for (const element of roots.pop()!.querySelectorAll('*')) {
          const match =
            element.getAttribute('role') === 'tab' ? /Problems \((\d+)\)/.exec(element.textContent ?? '') : null;
          if (match) counted = Number(match[1]);
          if (element.shadowRoot) roots.push(element.shadowRoot);
        }
      }
      return counted > expected;
    },
    before,
    { timeout: 30_000, polling: 'raf' },
  );
  const took = performance.now() - started;
  // Undo the typo, so the next run starts clean.
  for (let i = 0; i < ' {{emial}}'.length; i++) await page.keyboard.press('Backspace');
  return took;
}

/** A click on the Map tab to a node drawn for every dialog. */
async function map(page: Page, dialogs: number): Promise<number> {
  await page.getByRole('tab', { name: 'Outline' }).click();
  await page.getByRole('heading', { name: /^Steps of / }).waitFor();
  const started = performance.now();
  await page.getByRole('tab', { name: 'Map' }).click();
  // Each dialog's node on the map is a region named by its heading (map-d0, map-d1, …).
  await page.waitForFunction(
    (expected) => {
      const roots: (Document | ShadowRoot)[] = [document];
      let nodes = 0;
      while (roots.length > 0) {
        for (const element of roots.pop()!.querySelectorAll('*')) {
          if (element.tagName === 'H3' && element.id.startsWith('map-d')) nodes++;
          if (element.shadowRoot) roots.push(element.shadowRoot);
        }
      }
      return nodes >= expected;
    },
    dialogs,
    { timeout: 60_000, polling: 'raf' },
  );
  return performance.now() - started;
}

/** The size of a bot the designer is measured on, and the goals at that size (none: the reference). */
interface Size {
  readonly label: string;
  readonly dialogs: number;
  readonly steps: number;
  readonly goals?: Partial<Record<Row['key'], number>>;
}

/** What one size measured over the runs, in ms (keptChars: the tab's session storage after the last run). */
interface Figures {
  interactive: number[];
  /** Keys with frames tied to the display, then the same with frames free. */
  keys: number[];
  freeKeys: number[];
  /** The first key of each run (the page's first edit), frames free. */
  firstKeys: number[];
  undo: number[];
  redo: number[];
  problems: number[];
  map: number[];
  keepFirst: number[];
  keep: number[];
  keptChars: number;
  /** The worst keystroke of all runs and what ran beside it, frames tied and free. */
  worstKey: WorstKey | undefined;
  freeWorstKey: WorstKey | undefined;
  /** The same keys in a bare text field, frames tied and free: the browser's floor. */
  bare: number[];
  freeBare: number[];
}

interface Row {
  readonly key:
    | 'interactive'
    | 'tiedKey'
    | 'worstKey'
    | 'firstKey'
    | 'bare'
    | 'freeBare'
    | 'undo'
    | 'redo'
    | 'problems'
    | 'map'
    | 'keepFirst'
    | 'keep';
  readonly label: string;
  readonly value: (figures: Figures) => string;
}

const worst = (values: readonly number[]) => (values.length > 0 ? Math.max(...values) : NaN);
const medianAndWorst = (values: readonly number[]) => `${ms(median(values))} / ${ms(worst(values))}`;

// The reference is the same page on a 10-step bot, measured in the same run: what the machine's state adds.
const SIZES: readonly Size[] = [
  { label: '10 steps (reference)', dialogs: 2, steps: 10 },
  {
    label: '500 steps, 60 dialogs',
    dialogs: 60,
    steps: 500,
    goals: { interactive: 600, worstKey: 20, problems: 100, undo: 30, redo: 30 },
  },
  { label: '2,000 steps, 200 dialogs', dialogs: 200, steps: 2000, goals: { interactive: 1500, worstKey: 50 } },
];

const ROWS: readonly Row[] = [
  { key: 'interactive', label: 'interactive (median)', value: (f) => ms(median(f.interactive)) },
  {
    key: 'tiedKey',
    label: 'keystroke, frames tied to the display (median / worst)',
    value: (f) => medianAndWorst(f.keys),
  },
  { key: 'worstKey', label: 'keystroke, frames free (median / worst)', value: (f) => medianAndWorst(f.freeKeys) },
  {
    key: 'firstKey',
    label: "keystroke, a page's first, frames free (med. / worst)",
    value: (f) => medianAndWorst(f.firstKeys),
  },
  { key: 'bare', label: "  bare field, frames tied: the browser's floor", value: (f) => medianAndWorst(f.bare) },
  {
    key: 'freeBare',
    label: "  bare field, frames free: the browser's floor",
    value: (f) => medianAndWorst(f.freeBare),
  },
  { key: 'undo', label: 'undo (median / worst)', value: (f) => medianAndWorst(f.undo) },
  { key: 'redo', label: 'redo (median / worst)', value: (f) => medianAndWorst(f.redo) },
  { key: 'problems', label: 'problems updated (median; idle wait incl.)', value: (f) => ms(median(f.problems)) },
  { key: 'map', label: 'map drawn (median)', value: (f) => ms(median(f.map)) },
  {
    key: 'keepFirst',
    label: 'keep undo history, first save of a page (median; size)',
    value: (f) => `${ms(median(f.keepFirst))}; ${Math.round(f.keptChars / 1024)} K chars`,
  },
  {
    key: 'keep',
    label: 'keep undo history, later saves (median / worst)',
    // A large bot's edits may all fall into one autosave: then there was no later save to time.
    value: (f) => (f.keep.length === 0 ? 'none (one save a page)' : medianAndWorst(f.keep)),
  },
];

/** Each time the undo history was kept in the tab's storage (after each autosave), once the last edit is saved, and what the storage holds. */
const keptHistory = async (page: Page) => {
  await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor({ timeout: 30_000 });
  return page.evaluate((name) => {
    let chars = 0;
    for (let i = 0; i < sessionStorage.length; i++) chars += sessionStorage.getItem(sessionStorage.key(i)!)!.length;
    return { times: performance.getEntriesByName(name).map((entry) => entry.duration), chars };
  }, KEEP_HISTORY_MEASURE);
};

/** Every measure at one size, over the runs (the first screen with it, when asked). */
async function measure(size: Size, firsts?: Awaited<ReturnType<typeof firstScreen>>[]): Promise<Figures> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'designer-bench-')), 'bot.json');
  writeFileSync(file, JSON.stringify(largeBot(size)));
  const { server, owner } = await designerServer(file, { LOG_LEVEL: 'silent' });
  const figures: Figures = {
    interactive: [],
    keys: [],
    freeKeys: [],
    firstKeys: [],
    undo: [],
    redo: [],
    problems: [],
    map: [],
    keepFirst: [],
    keep: [],
    keptChars: 0,
    worstKey: undefined,
    freeWorstKey: undefined,
    bare: [],
    freeBare: [],
  };
  try {
    for (let run = 0; run < RUNS; run++) {
      const { context, page } = await signedInPage(browser, server, owner);
      figures.interactive.push(await interactive(page, server.url));
      const typed = await keystrokes(page);
      figures.keys.push(...typed.times);
      if (!figures.worstKey || typed.worst.ms > figures.worstKey.ms) figures.worstKey = typed.worst;
      const { undo, redo } = await undoRedo(page);
      figures.undo.push(...undo);
      figures.redo.push(...redo);
      figures.problems.push(await problems(page));
      figures.map.push(await map(page, size.dialogs));
      const kept = await keptHistory(page);
      figures.keepFirst.push(...kept.times.slice(0, 1));
      figures.keep.push(...kept.times.slice(1));
      figures.keptChars = kept.chars;
      await context.close();
      if (firsts) firsts.push(await firstScreen(browser, server.url));
      const free = await freeKeystrokes(server, owner);
      figures.freeKeys.push(...free.times);
      figures.firstKeys.push(...free.times.slice(0, 1));
      if (!figures.freeWorstKey || free.worst.ms > figures.freeWorstKey.ms) figures.freeWorstKey = free.worst;
    }
  } finally {
    await server.stop();
  }
  // After the size, so the floor sees the machine as the designer did.
  for (let run = 0; run < RUNS; run++) {
    figures.bare.push(...(await bareKeystrokes(browser)));
    figures.freeBare.push(...(await bareKeystrokes(freeBrowser)));
  }
  return figures;
}

/** The same keys on a freshly opened designer in the browser whose frames are free of the display. */
async function freeKeystrokes(server: DesignerServer, owner: Owner): Promise<Awaited<ReturnType<typeof keystrokes>>> {
  const { context, page } = await signedInPage(freeBrowser, server, owner);
  try {
    await interactive(page, server.url);
    return await keystrokes(page);
  } finally {
    await context.close();
  }
}

type DesignerServer = Awaited<ReturnType<typeof designerServer>>['server'];
type Owner = Awaited<ReturnType<typeof designerServer>>['owner'];

const browser = await launchBrowser();
const freeBrowser = await launchBrowser({ extraArgs: FRAMES_FREE });
try {
  const firsts: Awaited<ReturnType<typeof firstScreen>>[] = [];
  const measured = new Map<Size, Figures>();
  for (const size of SIZES) measured.set(size, await measure(size, size === SIZES[1] ? firsts : undefined));
  console.log(
    `studio designer (Chromium, ${RUNS} runs; the reference is measured in the same run, so the machine's state shows)`,
  );
  const columns = SIZES.flatMap((size) => (size.goals ? [size.label, 'goal'] : [size.label]));
  const widths = [58, ...columns.map((column) => (column === 'goal' ? 9 : 26))];
  const line = (cells: readonly string[]) =>
    console.log(
      cells
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('')
        .trimEnd(),
    );
  line(['', ...columns]);
  for (const row of ROWS)
    line([
      `  ${row.label}`,
      ...SIZES.flatMap((size) => {
        const value = row.value(measured.get(size)!);
        if (!size.goals) return [value];
        const goal = size.goals[row.key];
        return [value, goal === undefined ? '' : `<= ${goal}`];
      }),
    ]);
  console.log("  the keystroke goals are read against the frames-free figure (the page's own cost of a key)");
  console.log(`  the worst keystroke at each size (key n of ${KEYS}), and what the page did while it waited:`);
  for (const size of SIZES) {
    const { worstKey: tied, freeWorstKey: free } = measured.get(size)!;
    if (tied) console.log(`    ${size.label}, frames tied: ${ms(tied.ms)}, key ${tied.index + 1}: ${tied.during}`);
    if (free) console.log(`    ${size.label}, frames free: ${ms(free.ms)}, key ${free.index + 1}: ${free.during}`);
  }
  if (firsts.length > 0) {
    const first = firsts[0]!;
    console.log(
      `  first screen     sign-in form in median ${ms(median(firsts.map((f) => f.ms)))} (goal <= 1000 ms on loopback); scripts ${first.sent.toLocaleString('en')} B sent (${first.encoding}), ${first.gzip.toLocaleString('en')} B gzip (goal <= 81,920 B gzip)`,
    );
  }
  const script = studioScript();
  console.log(
    `  studio JavaScript in all ${script.raw.toLocaleString('en')} B, gzip ${script.gzip.toLocaleString('en')} B (split by screen: each loads when first opened)`,
  );
} finally {
  await browser.close();
  await freeBrowser.close();
}
