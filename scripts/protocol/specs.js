// Reads Kafka's message specs (common/message/*.json) out of the pinned Kafka jars, fetched with Maven.
// Used by generate.js; plain Node, no npm dependency.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const KAFKA_VERSION = '4.4.0';
const repoRoot = path.resolve(__dirname, '..', '..');
const jarDir = path.join(repoRoot, '.cache', 'protocol-specs', KAFKA_VERSION);

/** The jars whose specs we generate from, and which spec types each contributes. */
const SOURCES = [
  { artifact: 'kafka-clients', types: ['request', 'response', 'header', 'data'] },
  { artifact: 'kafka-group-coordinator', types: ['coordinator-key', 'coordinator-value'] },
];

function run(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const detail = `${error.stdout ?? ''}\n${error.stderr ?? ''}`.trim().split('\n').slice(-10).join('\n');
    throw new Error(`${command} ${args.join(' ')} failed: ${detail || error.message}`);
  }
}

/** The jar of org.apache.kafka:<artifact>:4.4.0, copied from Maven Central into .cache/ on first use. */
function kafkaJar(artifact, group = 'org.apache.kafka', version = KAFKA_VERSION) {
  const jar = path.join(jarDir, `${artifact}-${version}.jar`);
  if (!fs.existsSync(jar)) {
    fs.mkdirSync(jarDir, { recursive: true });
    run('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${group}:${artifact}:${version}:jar`,
      `-DoutputDirectory=${jarDir}`]);
    if (!fs.existsSync(jar)) {
      throw new Error(`mvn dependency:copy did not produce ${jar}`);
    }
  }
  return jar;
}

/** Kafka's spec files carry // line comments, which JSON.parse does not accept. */
function parseSpecText(text, file) {
  const withoutComments = text.split('\n').filter((line) => !/^\s*\/\//.test(line)).join('\n');
  try {
    return JSON.parse(withoutComments);
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  }
}

/** Every spec of the pinned version, sorted by name, each with the artifact it came from. */
function readSpecs() {
  const specs = [];
  for (const source of SOURCES) {
    const jar = kafkaJar(source.artifact);
    const entries = run('unzip', ['-Z1', jar]).split('\n')
      .filter((entry) => /^common\/message\/[A-Za-z0-9]+\.json$/.test(entry));
    for (const entry of entries) {
      const spec = parseSpecText(run('unzip', ['-p', jar, entry]), entry);
      if (source.types.includes(spec.type)) {
        specs.push({ ...spec, artifact: source.artifact });
      }
    }
  }
  return specs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Kafka's Errors enum (code, name, retriable, default message), printed by DumpErrors.java against the jar. */
function readErrors() {
  const classpath = [kafkaJar('kafka-clients'), kafkaJar('slf4j-api', 'org.slf4j', '1.7.36')].join(path.delimiter);
  const output = run('java', ['-cp', classpath, path.join(__dirname, 'DumpErrors.java')]);
  return output.split('\n').filter((line) => line !== '').map((line) => {
    const [code, name, retriable, message] = line.split('\t');
    return { code: Number(code), name, retriable: retriable === 'true', message };
  });
}

module.exports = { KAFKA_VERSION, readSpecs, readErrors, parseSpecText };
