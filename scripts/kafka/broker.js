// A throwaway single-node Apache Kafka 4.x (KRaft broker + controller) on 127.0.0.1 for tests and
// benchmarks. The jars come from Maven Central into .cache/kafka-<version>/lib and are reused.
// Exports ensureKafkaLib, startBroker and stopBroker; run-tests.js and bench/kafka.ts use them.
/* global setTimeout, clearTimeout */
'use strict';

const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const KAFKA_VERSION = process.env.KAFKA_VERSION || '4.1.1';
const POM = path.join(__dirname, 'pom.xml');
const SASL_USER = 'alice';
const SASL_PASSWORD = 'alice-secret';
const DEFAULT_START_TIMEOUT_MS = 120000;
const LOG_TAIL_LINES = 60;
const PARTITION_LOAD_LINE = /(Loading|Finished loading|Completed loading) (transaction|group and offset) metadata|Scheduling loading of metadata|Elected as the group coordinator|Starting loading metadata/;

/** Folder holding every jar of the broker, its tools and kafka-clients; downloaded once. */
function ensureKafkaLib(version = KAFKA_VERSION) {
  const cacheDir = path.join(REPO_ROOT, '.cache', `kafka-${version}`);
  const lib = path.join(cacheDir, 'lib');
  const marker = path.join(cacheDir, 'lib.complete');
  if (fs.existsSync(marker) && fs.existsSync(lib)) {
    return lib;
  }
  const staging = path.join(cacheDir, 'lib.partial');
  fs.rmSync(staging, { recursive: true, force: true });
  fs.rmSync(lib, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  console.log(`[kafka] downloading Apache Kafka ${version} jars with Maven into ${lib} ...`);
  const result = spawnSync(
    'mvn',
    ['-q', '-B', '-f', POM, `-Dkafka.version=${version}`, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${staging}`],
    { stdio: 'inherit' },
  );
  if (result.error) {
    throw new Error(`Cannot run Maven (mvn): ${result.error.message}. Install Maven and JDK 17+.`);
  }
  if (result.status !== 0) {
    throw new Error(`Maven failed (exit ${result.status}) to fetch Apache Kafka ${version}; see its output above.`);
  }
  fs.renameSync(staging, lib);
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
  return lib;
}

/**
 * `count` distinct free ports on 127.0.0.1. All are held open until every one is chosen: asking one at a
 * time, the kernel may hand the same just-closed port out twice, and the broker then fails to bind its
 * second listener.
 */
async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      server.unref();
      servers.push(server);
      await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve()))));
  }
}

/**
 * Kafka's Uuid.randomUuid(): a type-4 UUID printed as URL-safe base64 without padding, redrawn while its
 * text starts with "-" (kafka-storage's argument parser would read such an id as an option: 1 draw in 64).
 * The version and variant bits keep it from ever being the zero UUID, which Kafka also redraws.
 */
function randomClusterId(randomBytes = crypto.randomBytes) {
  for (;;) {
    const bytes = randomBytes(16);
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // IETF variant
    const id = bytes.toString('base64url');
    if (!id.startsWith('-')) {
      return id;
    }
  }
}

function serverProperties({ dataDir, port, saslPort, controllerPort }) {
  const jaas = (module) => `${module} required${module.includes('Plain') ? ` user_${SASL_USER}="${SASL_PASSWORD}"` : ''};`;
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},SASL_PLAINTEXT://127.0.0.1:${saslPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port},SASL_PLAINTEXT://127.0.0.1:${saslPort}`,
    'inter.broker.listener.name=PLAINTEXT',
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
    'sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN',
    `listener.name.sasl_plaintext.plain.sasl.jaas.config=${jaas('org.apache.kafka.common.security.plain.PlainLoginModule')}`,
    `listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=${jaas('org.apache.kafka.common.security.scram.ScramLoginModule')}`,
    `listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=${jaas('org.apache.kafka.common.security.scram.ScramLoginModule')}`,
    `log.dirs=${dataDir}`,
    'num.partitions=1',
    'auto.create.topics.enable=false',
    'offsets.topic.num.partitions=50',
    'offsets.topic.replication.factor=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    // Share groups (KIP-932) keep their state in __share_group_state, replicated 3 times by default.
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    // Quick rebalances keep the suite short; tests of the initial delay would set it back.
    'group.initial.rebalance.delay.ms=0',
    'group.consumer.heartbeat.interval.ms=1000',
    'group.consumer.min.heartbeat.interval.ms=1000',
    '',
  ].join('\n');
}

const LOG4J2 = [
  'status = warn',
  'appender.out.type = Console',
  'appender.out.name = STDOUT',
  'appender.out.layout.type = PatternLayout',
  'appender.out.layout.pattern = [%d] %p %m (%c)%n',
  'rootLogger.level = INFO',
  'rootLogger.appenderRef.out.ref = STDOUT',
  'logger.state.name = state.change.logger',
  'logger.state.level = WARN',
  '',
].join('\n');

function javaClasspath(lib) {
  return `${lib}${path.sep}*`;
}

function runJava(lib, args, options = {}) {
  return spawnSync('java', ['-cp', javaClasspath(lib), ...args], { encoding: 'utf8', ...options });
}

function logTail(logFile) {
  try {
    const text = fs.readFileSync(logFile, 'utf8').trimEnd();
    // A coordinator loading its 50 partitions fills the tail with one line each, hiding what went wrong.
    const lines = text.split('\n').filter((line) => !PARTITION_LOAD_LINE.test(line));
    return text ? lines.slice(-LOG_TAIL_LINES).join('\n') : '(the broker has logged nothing yet)';
  } catch {
    return '(no broker log)';
  }
}

/** Resolves when a metadata request over PLAINTEXT and a SCRAM login both succeed. */
async function probe(bootstrap, saslBootstrap) {
  const { Kafka, logLevel } = require('kafkajs');
  const common = { clientId: 'harness-probe', logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 0 } };
  const plain = new Kafka({ ...common, brokers: [bootstrap] }).admin();
  const sasl = new Kafka({
    ...common,
    brokers: [saslBootstrap],
    sasl: { mechanism: 'scram-sha-256', username: SASL_USER, password: SASL_PASSWORD },
  }).admin();
  try {
    await plain.connect();
    const cluster = await plain.describeCluster();
    if (cluster.brokers.length === 0) {
      throw new Error('metadata lists no broker yet');
    }
    await sasl.connect();
    await sasl.describeCluster();
  } finally {
    await plain.disconnect().catch(() => undefined);
    await sasl.disconnect().catch(() => undefined);
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Formats and starts a fresh broker. Returns a handle; call stopBroker(handle) (also on failure paths).
 * @param {{ startTimeoutMs?: number, version?: string }} [options]
 */
async function startBroker(options = {}) {
  const lib = ensureKafkaLib(options.version);
  const startTimeoutMs = options.startTimeoutMs || Number(process.env.KAFKA_START_TIMEOUT_MS) || DEFAULT_START_TIMEOUT_MS;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kgl-kafka-'));
  const [port, saslPort, controllerPort] = await freePorts(3);
  const dataDir = path.join(dir, 'data');
  const configFile = path.join(dir, 'server.properties');
  const log4jFile = path.join(dir, 'log4j2.properties');
  const logFile = path.join(dir, 'broker.log');
  fs.writeFileSync(configFile, serverProperties({ dataDir, port, saslPort, controllerPort }));
  fs.writeFileSync(log4jFile, LOG4J2);

  const handle = {
    dir,
    lib,
    logFile,
    bootstrap: `127.0.0.1:${port}`,
    saslBootstrap: `127.0.0.1:${saslPort}`,
    user: SASL_USER,
    password: SASL_PASSWORD,
    process: null,
  };

  try {
    const scram = (mechanism) => ['--add-scram', `${mechanism}=[name=${SASL_USER},password=${SASL_PASSWORD}]`];
    const format = runJava(lib, [
      `-Dlog4j2.configurationFile=${log4jFile}`,
      'kafka.tools.StorageTool', 'format', '-t', randomClusterId(), '-c', configFile,
      ...scram('SCRAM-SHA-256'), ...scram('SCRAM-SHA-512'),
    ]);
    if (format.error || format.status !== 0) {
      throw new Error(`kafka-storage format failed: ${format.error ? format.error.message : `${format.stdout}\n${format.stderr}`}`);
    }

    const logFd = fs.openSync(logFile, 'a');
    const child = spawn(
      'java',
      ['-Xms256m', '-Xmx768m', `-Dlog4j2.configurationFile=${log4jFile}`, '-cp', javaClasspath(lib), 'kafka.Kafka', configFile],
      { stdio: ['ignore', logFd, logFd] },
    );
    fs.closeSync(logFd);
    handle.process = child;
    let exited = null;
    child.on('exit', (code, signal) => {
      exited = { code, signal };
    });

    const deadline = Date.now() + startTimeoutMs;
    let lastError = null;
    for (;;) {
      if (exited) {
        throw new Error(`the broker exited during start-up (code ${exited.code}, signal ${exited.signal})`);
      }
      try {
        await probe(handle.bootstrap, handle.saslBootstrap);
        return handle;
      } catch (e) {
        lastError = e;
      }
      if (Date.now() > deadline) {
        throw new Error(`the broker did not answer a metadata request within ${startTimeoutMs} ms (last error: ${lastError && lastError.message})`);
      }
      await sleep(500);
    }
  } catch (e) {
    const tail = logTail(logFile);
    await stopBroker(handle);
    throw new Error(`Kafka ${KAFKA_VERSION} broker failed to start: ${e.message}\n--- last lines of the broker log ---\n${tail}`);
  }
}

function waitForExit(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(true);
      return;
    }
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Kills the broker (SIGTERM, then SIGKILL after 5 s) and removes its folder. Safe to call twice. */
async function stopBroker(handle) {
  const child = handle.process;
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    if (!(await waitForExit(child, 5000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5000);
    }
  }
  handle.process = null;
  fs.rmSync(handle.dir, { recursive: true, force: true });
}

/** Last-resort synchronous cleanup for process 'exit' handlers. */
function stopBrokerSync(handle) {
  const child = handle.process;
  if (child && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  handle.process = null;
  fs.rmSync(handle.dir, { recursive: true, force: true });
}

module.exports = { KAFKA_VERSION, randomClusterId, freePorts, ensureKafkaLib, startBroker, stopBroker, stopBrokerSync, logTail };
