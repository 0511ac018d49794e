#!/usr/bin/env node
// Generates src/protocol/messages/ from the message specs of Kafka 4.4.0 (common/message/*.json in the
// kafka-clients and kafka-group-coordinator jars), the way Kafka's own MessageDataGenerator does: per message a
// typed data interface and one read and one write function per struct, branching on the version.
//
//   node scripts/protocol/generate.js            writes src/protocol/messages/
//   node scripts/protocol/generate.js --check    regenerates into a temp folder and fails if anything differs
//   node scripts/protocol/generate.js --out DIR  writes into DIR
const fs = require('fs');
const os = require('os');
const path = require('path');
const { KAFKA_VERSION, readSpecs, readErrors } = require('./specs');
const { renderMessage, renderApiTable, renderAllMessages, renderErrorTable, normalizeSpec } = require('./render');

const repoRoot = path.resolve(__dirname, '..', '..');
const committedDir = path.join(repoRoot, 'src', 'protocol', 'messages');

function fileNameOf(name) {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** Renders every file; returns a map of file name to contents. */
function renderAll() {
  const specs = readSpecs().filter((spec) => spec.validVersions !== 'none');
  const files = new Map();
  const normalized = specs.map(normalizeSpec);
  for (const spec of normalized) {
    files.set(`${fileNameOf(spec.name)}.ts`, renderMessage(spec, KAFKA_VERSION));
  }
  files.set('apis.ts', renderApiTable(normalized, KAFKA_VERSION));
  files.set('allMessages.ts', renderAllMessages(normalized, KAFKA_VERSION, fileNameOf));
  files.set('errorTable.ts', renderErrorTable(readErrors(), KAFKA_VERSION));
  // The specs themselves (without their prose), for the tests' random message generator and the Java cross-check.
  files.set('specs.json', `${JSON.stringify(normalized.map((spec) => spec.raw), null, 1)}\n`);
  return files;
}

function write(dir, files) {
  fs.mkdirSync(dir, { recursive: true });
  for (const existing of fs.readdirSync(dir)) {
    if (!files.has(existing)) {
      fs.rmSync(path.join(dir, existing));
    }
  }
  for (const [name, text] of files) {
    fs.writeFileSync(path.join(dir, name), text);
  }
}

function check(files) {
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'protocol-check-'));
  try {
    write(tempDir, files);
    const problems = [];
    const committed = fs.existsSync(committedDir) ? fs.readdirSync(committedDir) : [];
    for (const name of committed) {
      if (!files.has(name)) {
        problems.push(`${name}: committed but no longer generated`);
      }
    }
    for (const [name, text] of files) {
      const file = path.join(committedDir, name);
      if (!fs.existsSync(file)) {
        problems.push(`${name}: generated but not committed`);
      } else if (fs.readFileSync(file, 'utf8') !== text) {
        problems.push(`${name}: differs from what the generator writes`);
      }
    }
    if (problems.length > 0) {
      console.error(`src/protocol/messages/ is not what scripts/protocol/generate.js writes from Kafka ${KAFKA_VERSION}:`);
      for (const problem of problems.slice(0, 50)) {
        console.error(`  ${problem}`);
      }
      console.error('Run `npm run protocol:generate` and commit the result.');
      process.exitCode = 1;
    } else {
      console.log(`protocol:check: ${files.size} generated files match Kafka ${KAFKA_VERSION}'s specs`);
    }
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true });
  }
}

function main() {
  const args = process.argv.slice(2);
  const files = renderAll();
  if (args.includes('--check')) {
    check(files);
    return;
  }
  const outIndex = args.indexOf('--out');
  const outDir = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : committedDir;
  write(outDir, files);
  let lines = 0;
  for (const text of files.values()) {
    lines += text.split('\n').length - 1;
  }
  console.log(`wrote ${files.size} files (${lines} lines) to ${path.relative(repoRoot, outDir) || outDir}`);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
