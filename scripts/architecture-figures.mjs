// The architecture figures of the product code, measured the same way every time, so that a step of the house
// (docs/architecture.md) can say what it changed and a test can keep what it won:
//
//   node scripts/architecture-figures.mjs [--root DIR] [--json] [--max-circles N] [--max-arrows-up N] [--max-long N]
//
// Product code: the tracked `.ts` files under server/, shared/, widget/ and studio/; tests (`*.test.ts`, any
// `test/` folder), e2e/, bench/, scripts/, demo/ and the store contract cases (server/stores/contract/) are not.
// An import is any static import or export-from, type-only included, a dynamic `import('…')` and an
// `import('…')` type, whose relative specifier resolves to another product file; packages are not counted.
//
// - floors: the import graph drawn per folder (a node is a file's directory, e.g. server/stores/mongo; an edge
//   a → b is any import from a file of a to a file of b, weighted by the importing (file, file) pairs), its
//   cycles condensed; the number of folders on its longest path. A file directly in a top folder is a node of
//   its own (server/main.ts, server/config.ts): those are the entry points above everything and the common
//   ground below it (the handbook puts main.ts beside config.ts), so one node for them would draw a circle
//   through start/ that no step of the house could undo.
// - arrows up: the folder edges that make the folder graph cyclic. Rule: within each strongly connected set of
//   folders, the order of its folders that puts the fewest imports backwards (a minimum feedback arc set
//   weighted by importing file pairs, exact; ties go to fewer edges, then the alphabetically first folder goes
//   last, and so on backwards); the edges that order puts backwards are the arrows up. Above 16 folders in one
//   set the order is greedy (Eades, Lin and Smyth), still deterministic. Each is listed with the file imports
//   that draw it.
// - import circles: the file-level strongly connected sets of more than one file.
// - long functions: function declarations, methods, constructors, accessors, arrow functions and function
//   expressions (so a Lit `render()` too) longer than 100 lines, from the line of their first token to the
//   line of their last; a nested function counts on its own, and its outer one counts its whole span. A data
//   table is a long function at least 80 % of whose lines lie in object or array literals, not counting the
//   lines of functions written inside them (the OpenAPI document is a table; a store's object of methods is
//   not): listed apart, not counted by --max-long.
// - lines: non-blank product lines per top folder.
//
// --max-… make it exit 1 when a figure is over its maximum (scripts/architecture-limits.json holds the ones
// scripts/architecture-figures.test.ts keeps).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const TOP_FOLDERS = ['server', 'shared', 'widget', 'studio'];
const LONG_FUNCTION_LINES = 100;
const DATA_TABLE_SHARE = 0.8;
const EXACT_ORDER_LIMIT = 16;

/** Whether a tracked path is product code (see the header). */
function isProduct(file) {
  const [top] = file.split('/');
  if (!TOP_FOLDERS.includes(top) || !file.endsWith('.ts')) return false;
  if (file.endsWith('.test.ts') || file.split('/').includes('test')) return false;
  return !file.startsWith('server/stores/contract/');
}

/** The product files tracked by git under `root`, sorted. */
function productFiles(root) {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', ...TOP_FOLDERS], { cwd: root, encoding: 'utf8' });
  return tracked.split('\0').filter(isProduct).sort();
}

/** The module specifiers a source file imports (static, export-from, dynamic, import types). */
function specifiers(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) found.push(argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The product file a relative specifier names, or undefined (a package, a JSON file, a test helper). */
function resolve(from, specifier, products) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from), specifier);
  const candidates = [base, base.replace(/\.m?js$/, '.ts'), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => products.has(candidate));
}

function lineOf(source, position) {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** A function's name as a reader finds it: its own, or the variable, property or call it sits in. */
function functionName(node) {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().split('\n')[0].slice(0, 40)})`;
  return '(anonymous)';
}

/**
 * The share of a function's lines that are data: lines inside its object and array literals, less those of the
 * functions written in them (an object of methods is code, not a table).
 */
function dataShare(source, node, lines) {
  const first = lineOf(source, node.getStart(source));
  const data = new Uint8Array(lines);
  const mark = (child, value) => {
    const from = lineOf(source, child.getStart(source)) - first;
    const to = lineOf(source, child.end) - first;
    data.fill(value, from, to + 1);
  };
  const literals = [];
  const functions = [];
  const visit = (child) => {
    if (ts.isObjectLiteralExpression(child) || ts.isArrayLiteralExpression(child)) literals.push(child);
    if (isFunction(child)) functions.push(child);
    ts.forEachChild(child, visit);
  };
  ts.forEachChild(node, visit);
  for (const literal of literals) mark(literal, 1);
  for (const inner of functions) mark(inner, 0);
  return data.reduce((sum, line) => sum + line, 0) / lines;
}

/** The functions of a file longer than LONG_FUNCTION_LINES lines. */
function longFunctions(file, source) {
  const found = [];
  const visit = (node) => {
    if (isFunction(node)) {
      const line = lineOf(source, node.getStart(source));
      const lines = lineOf(source, node.end) - line + 1;
      if (lines > LONG_FUNCTION_LINES) {
        const dataTable = dataShare(source, node, lines) >= DATA_TABLE_SHARE;
        found.push({ file, line, name: functionName(node), lines, dataTable });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Tarjan's strongly connected components of `nodes` (sorted) under `edges` (node → sorted targets). */
function stronglyConnected(nodes, edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (start) => {
    // Iterative, so a long chain of files does not overflow the call stack.
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, at] = frame;
      const targets = edges.get(node) ?? [];
      if (at < targets.length) {
        frame[1] = at + 1;
        const target = targets[at];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        components.push(component.sort());
      }
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return components;
}

/** Compares two costs [imports, edges]. */
const cheaper = (a, b) => a[0] - b[0] || a[1] - b[1];

/**
 * The order of `members` (sorted) that puts the fewest imports backwards, then the fewest edges; `weight(a, b)` is
 * the imports of the edge a → b (0 when none). Exact by dynamic programming over subsets: best[S] is the cheapest
 * order of the set S placed first; placing v after S puts v's edges into S backwards.
 */
function cheapestOrder(members, weight) {
  const n = members.length;
  if (n > EXACT_ORDER_LIMIT) return greedyOrder(members, weight);
  const backwards = members.map((v) =>
    members.map((u) => {
      const imports = weight(v, u);
      return imports > 0 ? [imports, 1] : [0, 0];
    }),
  );
  const size = 1 << n;
  const cost = new Array(size);
  const last = new Int32Array(size).fill(-1);
  cost[0] = [0, 0];
  for (let set = 1; set < size; set++) {
    for (let v = 0; v < n; v++) {
      if (!(set & (1 << v))) continue;
      const before = set & ~(1 << v);
      const total = [...cost[before]];
      for (let u = 0; u < n; u++) {
        if (before & (1 << u)) {
          total[0] += backwards[v][u][0];
          total[1] += backwards[v][u][1];
        }
      }
      // Strictly cheaper only: among equal costs the lowest-named last folder stays, for a stable answer.
      if (last[set] === -1 || cheaper(total, cost[set]) < 0) {
        cost[set] = total;
        last[set] = v;
      }
    }
  }
  const order = [];
  for (let set = size - 1; set > 0; set &= ~(1 << last[set])) order.unshift(members[last[set]]);
  return order;
}

/** Eades, Lin and Smyth's greedy order for a large strongly connected set; ties go to the lowest name. */
function greedyOrder(members, weight) {
  const left = new Set(members);
  const head = [];
  const tail = [];
  const degree = (v, incoming) =>
    [...left].reduce((sum, u) => sum + (u === v ? 0 : incoming ? weight(u, v) : weight(v, u)), 0);
  while (left.size > 0) {
    let changed = true;
    while (changed) {
      changed = false;
      for (const v of [...left]) {
        if (degree(v, false) === 0) {
          tail.unshift(v);
          left.delete(v);
          changed = true;
        } else if (degree(v, true) === 0) {
          head.push(v);
          left.delete(v);
          changed = true;
        }
      }
    }
    if (left.size === 0) break;
    let best;
    let bestDelta = -Infinity;
    for (const v of left) {
      const delta = degree(v, false) - degree(v, true);
      if (delta > bestDelta) [best, bestDelta] = [v, delta];
    }
    head.push(best);
    left.delete(best);
  }
  return [...head, ...tail];
}

/** Orders paths by code unit, as `sort()` does: the same on every machine, whatever its locale. */
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Counts non-blank lines. */
const nonBlankLines = (text) => text.split('\n').filter((line) => line.trim() !== '').length;

/** All the figures of the product code under `root`. */
function measure(root) {
  const files = productFiles(root);
  const products = new Set(files);
  const imports = new Map(); // file → sorted product files it imports
  const lines = Object.fromEntries(TOP_FOLDERS.map((top) => [top, 0]));
  const long = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    lines[file.split('/')[0]] += nonBlankLines(text);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const targets = new Set();
    for (const specifier of specifiers(source)) {
      const target = resolve(file, specifier, products);
      if (target && target !== file) targets.add(target);
    }
    imports.set(file, [...targets].sort());
    long.push(...longFunctions(file, source));
  }

  // Folders: an edge per pair of folders, with the file imports that draw it.
  const folderOf = (file) => (TOP_FOLDERS.includes(path.posix.dirname(file)) ? file : path.posix.dirname(file));
  const folderImports = new Map(); // "a\0b" → [[fromFile, toFile]]
  for (const [file, targets] of imports) {
    for (const target of targets) {
      if (folderOf(file) === folderOf(target)) continue;
      const key = `${folderOf(file)}\0${folderOf(target)}`;
      if (!folderImports.has(key)) folderImports.set(key, []);
      folderImports.get(key).push([file, target]);
    }
  }
  const folders = [...new Set(files.map(folderOf))].sort();
  const folderEdges = new Map(folders.map((folder) => [folder, []]));
  for (const key of [...folderImports.keys()].sort()) {
    const [from, to] = key.split('\0');
    folderEdges.get(from).push(to);
  }
  const weight = (from, to) => folderImports.get(`${from}\0${to}`)?.length ?? 0;
  const folderSets = stronglyConnected(folders, folderEdges);

  // Floors: the longest path, in folders, through the condensed graph (Tarjan yields sinks first).
  const setOf = new Map();
  folderSets.forEach((set, i) => set.forEach((folder) => setOf.set(folder, i)));
  const height = new Array(folderSets.length).fill(1);
  folderSets.forEach((set, i) => {
    for (const folder of set) {
      for (const target of folderEdges.get(folder)) {
        const j = setOf.get(target);
        if (j !== i) height[i] = Math.max(height[i], height[j] + 1);
      }
    }
  });
  const floors = Math.max(0, ...height);

  const arrowsUp = [];
  for (const set of folderSets.filter((s) => s.length > 1)) {
    const order = cheapestOrder(set, weight);
    const place = new Map(order.map((folder, i) => [folder, i]));
    for (const from of order) {
      for (const to of folderEdges.get(from)) {
        if (place.has(to) && place.get(to) < place.get(from)) {
          const pairs = folderImports.get(`${from}\0${to}`);
          arrowsUp.push({ from, to, imports: pairs.map(([file, target]) => ({ from: file, to: target })) });
        }
      }
    }
  }
  arrowsUp.sort((a, b) => byName(a.from, b.from) || byName(a.to, b.to));

  const importCircles = stronglyConnected(files, imports)
    .filter((set) => set.length > 1)
    .sort((a, b) => byName(a[0], b[0]));
  long.sort((a, b) => b.lines - a.lines || byName(a.file, b.file) || a.line - b.line);

  return {
    files: files.length,
    lines,
    folders: folders.map((name) => ({ name, files: files.filter((file) => folderOf(file) === name) })),
    floors,
    folderCycles: folderSets.filter((set) => set.length > 1).sort((a, b) => byName(a[0], b[0])),
    arrowsUp,
    importCircles,
    longFunctions: long.filter((f) => !f.dataTable),
    dataTables: long.filter((f) => f.dataTable),
  };
}

/** The figures as a reader wants them. */
function report(figures) {
  const out = [];
  const total = Object.values(figures.lines).reduce((a, b) => a + b, 0);
  out.push(`product files: ${figures.files} in ${figures.folders.length} folders`);
  out.push(
    `product lines (non-blank): ${total} (${Object.entries(figures.lines)
      .map(([top, n]) => `${top} ${n}`)
      .join(', ')})`,
  );
  out.push(`floors: ${figures.floors}`);
  out.push(`folder cycles: ${figures.folderCycles.length}`);
  for (const set of figures.folderCycles) out.push(`  ${set.join(' ⇄ ')}`);
  out.push(`arrows up: ${figures.arrowsUp.length}`);
  for (const arrow of figures.arrowsUp) {
    out.push(`  ${arrow.from} → ${arrow.to}`);
    for (const i of arrow.imports) out.push(`    (${i.from} → ${i.to})`);
  }
  out.push(`import circles: ${figures.importCircles.length}`);
  for (const circle of figures.importCircles) out.push(`  ${circle.join(' ⇄ ')}`);
  out.push(`long functions (over ${LONG_FUNCTION_LINES} lines): ${figures.longFunctions.length}`);
  for (const f of figures.longFunctions) out.push(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
  out.push(`data tables (over ${LONG_FUNCTION_LINES} lines): ${figures.dataTables.length}`);
  for (const f of figures.dataTables) out.push(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
  return out.join('\n');
}

function main(argv) {
  const options = { root: process.cwd(), json: false, max: {} };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--json') options.json = true;
    else if (flag === '--root') options.root = path.resolve(argv[++i]);
    else if (['--max-circles', '--max-arrows-up', '--max-long'].includes(flag)) {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} takes a whole number`);
      options.max[flag.slice('--max-'.length)] = value;
    } else throw new Error(`unknown option ${flag}`);
  }
  const figures = measure(options.root);
  console.log(options.json ? JSON.stringify(figures, null, 2) : report(figures));
  const actual = {
    circles: figures.importCircles.length,
    'arrows-up': figures.arrowsUp.length,
    long: figures.longFunctions.length,
  };
  const over = Object.entries(options.max).filter(([name, max]) => actual[name] > max);
  for (const [name, max] of over) console.error(`${name}: ${actual[name]}, over the maximum ${max}`);
  if (over.length > 0) process.exitCode = 1;
}

main(process.argv.slice(2));
