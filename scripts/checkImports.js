// The import graph of src/, file by file: no import cycle between files anywhere, and inside the
// simulator no import against its declared folder order (SIMULATOR_LAYERS). `npm test` runs it (via
// test/unit/scripts/checkImports.test.ts); `node scripts/checkImports.js` runs it alone and exits 1 on
// a problem. Type-only imports count: a cycle of types is still a cycle for the reader.
'use strict';
const fs = require('fs');
const path = require('path');

/**
 * The simulator's rooms from the ground up. A file may import a file of its own room, or of a room on
 * a lower line; rooms on one line are siblings and never import each other. A room is a folder under
 * src/simulator/ (its sub-folders included) or one of the top-level files named here.
 */
const SIMULATOR_LAYERS = [
  ['common'],
  ['log'],
  ['assignors', 'share'],
  ['coordinator', 'clients'],
  ['simulation.ts'],
  ['live.ts'],
  ['admin'],
  ['scenarios', 'scenario.ts'],
  ['editor', 'server'],
  ['index.ts'],
];
/** Rooms that are one room with another (the contract file re-exporting its folder). */
const SAME_ROOM = { 'scenario.ts': 'scenarios' };

const SPECIFIER = /(?:\bimport|\bexport)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir) {
  const files = [];
  (function walk(d) {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(p);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(p);
      }
    }
  })(dir);
  return files.sort();
}

function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return undefined;
}

/** File → the files of `root` it imports (relative specifiers only; comments stripped first). */
function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
    const targets = new Set();
    for (const m of text.matchAll(SPECIFIER)) {
      const specifier = m[1] ?? m[2] ?? m[3] ?? m[4];
      if (specifier.startsWith('.')) {
        const target = resolve(file, specifier);
        if (target !== undefined && target.startsWith(root + path.sep)) {
          targets.add(target);
        }
      }
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The file-level cycles: each strongly connected component of more than one file, or a file importing itself. */
function cycles(graph) {
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  function connect(v) {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
        found.push(component.sort());
      }
    }
  }
  for (const v of graph.keys()) {
    if (!index.has(v)) {
      connect(v);
    }
  }
  return found;
}

/** One path round a cycle, for the message: from the component's first file back to it. */
function cyclePath(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const route = [start];
        for (let u = v; u !== start; u = previous.get(u)) {
          route.splice(1, 0, u);
        }
        return [...route, start];
      }
      if (members.has(w) && !previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

function simulatorRoom(simulatorDir, file) {
  const parts = path.relative(simulatorDir, file).split(path.sep);
  const room = parts[0];
  return SAME_ROOM[room] ?? room;
}

function rankOf(room) {
  const rank = SIMULATOR_LAYERS.findIndex((line) => line.includes(room));
  return rank;
}

/** Problems with the simulator's folder order: an import of a higher room or of a sibling, or a room the order does not name. */
function orderProblems(graph, root) {
  const simulatorDir = path.join(root, 'simulator');
  const problems = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(simulatorDir + path.sep)) {
      continue;
    }
    const from = simulatorRoom(simulatorDir, file);
    const fromRank = rankOf(from);
    if (fromRank < 0) {
      problems.push(`${path.relative('.', file)}: simulator room "${from}" is not in SIMULATOR_LAYERS (scripts/checkImports.js)`);
      continue;
    }
    for (const target of targets) {
      if (!target.startsWith(simulatorDir + path.sep)) {
        continue;
      }
      const to = simulatorRoom(simulatorDir, target);
      const toRank = rankOf(to);
      if (to === from || toRank < 0 || toRank < fromRank) {
        continue;
      }
      const why = toRank === fromRank ? 'siblings never import each other' : `${to} sits above ${from}`;
      problems.push(`${path.relative('.', file)} -> ${path.relative('.', target)}: ${from} imports ${to} (${why})`);
    }
  }
  return problems;
}

/** Every problem of the import graph under `root` (src/ by default), as printable lines. */
function checkImports(root = path.resolve('src')) {
  const graph = importGraph(root);
  const problems = cycles(graph).map((component) => `import cycle: ${cyclePath(graph, component).map((f) => path.relative('.', f)).join(' -> ')}`);
  return { files: graph.size, problems: [...problems, ...orderProblems(graph, root)] };
}

module.exports = { checkImports, SIMULATOR_LAYERS };

if (require.main === module) {
  const { files, problems } = checkImports(path.resolve(process.argv[2] ?? 'src'));
  if (problems.length > 0) {
    console.log(problems.join('\n'));
    console.log(`${problems.length} import problem(s)`);
    process.exit(1);
  }
  console.log(`imports hold: ${files} files, no file-level cycle, the simulator's rooms in order`);
}
