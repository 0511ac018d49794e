// Starts a fresh Kafka broker, runs mocha on test/kafka/**/*.test.ts against it and always cleans up.
// Usage: node scripts/kafka/run-tests.js [extra mocha args, e.g. --grep lag]
'use strict';
/* global setTimeout, clearTimeout, Buffer */

const { spawn } = require('child_process');
const path = require('path');
const { KAFKA_VERSION, startBroker, stopBroker, stopBrokerSync, logTail } = require('./broker');
const { ensureDebianPackages } = require('../debianPackages');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The simulator-server tests drive kcat, and the timeline test renders through headless Chromium; nothing
 * is skipped when one is missing: as root it is installed from Debian's package, otherwise the run
 * stops at once and names the apt-get line.
 */
const machinePackages = ['kcat', 'chromium'];
const STDOUT_DRAIN_MS = 5000;

async function main() {
  ensureDebianPackages('test:kafka', machinePackages);
  let broker = null;
  let mocha = null;
  let stopping = false;

  // Mocha runs in its own process group so that the Java test members it spawns die with it.
  const killMochaGroup = () => {
    if (mocha && mocha.exitCode === null && mocha.signalCode === null) {
      try {
        process.kill(-mocha.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };

  const onSignal = (signal) => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.error(`[kafka] ${signal}: stopping tests and broker`);
    killMochaGroup();
    const done = () => process.exit(signal === 'SIGINT' ? 130 : 143);
    (broker ? stopBroker(broker) : Promise.resolve()).then(done, done);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => {
    killMochaGroup();
    if (broker) {
      stopBrokerSync(broker);
    }
  });

  const started = Date.now();
  broker = await startBroker();
  console.log(`[kafka] Apache Kafka ${KAFKA_VERSION} broker up in ${Date.now() - started} ms: PLAINTEXT ${broker.bootstrap}, SASL_PLAINTEXT ${broker.saslBootstrap}`);

  const mochaBin = require.resolve('mocha/bin/mocha.js', { paths: [REPO_ROOT] });
  const args = [
    mochaBin, '--no-config', '--require', 'tsx/cjs', '--extension', 'ts', '--timeout', '60000', '--forbid-pending',
    '--recursive', 'test/kafka/**/*.test.ts', ...process.argv.slice(2),
  ];
  const mochaOutput = [];
  const code = await new Promise((resolve) => {
    mocha = spawn(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: ['inherit', 'pipe', 'inherit'],
      detached: true,
      env: {
        ...process.env,
        KAFKA_BOOTSTRAP: broker.bootstrap,
        KAFKA_SASL_BOOTSTRAP: broker.saslBootstrap,
        KAFKA_SASL_USER: broker.user,
        KAFKA_SASL_PASSWORD: broker.password,
        KAFKA_LIB: broker.lib,
        KAFKA_VERSION,
      },
    });
    mocha.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      mochaOutput.push(chunk);
    });
    mocha.on('exit', (exitCode, signal) => {
      const result = exitCode === null ? (signal === 'SIGINT' ? 130 : 1) : exitCode;
      // Its stdout can still hold mocha's last lines (the failure report) after the exit; wait for the end of it,
      // bounded, since a test member left running would keep the pipe open.
      if (mocha.stdout.readableEnded) {
        resolve(result);
        return;
      }
      const timer = setTimeout(() => resolve(result), STDOUT_DRAIN_MS);
      mocha.stdout.once('end', () => {
        clearTimeout(timer);
        resolve(result);
      });
    });
  });
  if (stopping) {
    return new Promise(() => undefined); // the signal handler exits once the broker is down
  }
  if (code !== 0) {
    console.error(`[kafka] tests failed (exit ${code}); last lines of the broker log:\n${logTail(broker.logFile)}`);
    // Repeated after the broker log so that a CI summary showing only the output's tail still names the failures.
    console.error(`[kafka] the failures again, from mocha's report:\n${failureReport(Buffer.concat(mochaOutput).toString('utf8'))}`);
  }
  await stopBroker(broker);
  broker = null;
  return code;
}

/** Mocha's spec reporter ends with "N failing" and one numbered block per failure; that part, capped in length. */
function failureReport(output) {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /^\s+\d+ failing\s*$/.test(line));
  if (start < 0) {
    return '(mocha printed no failure report; it may have crashed; see above)';
  }
  const report = lines.slice(start);
  const cap = 200;
  return report.length > cap ? [...report.slice(0, cap), `... ${report.length - cap} more lines above, in mocha's report`].join('\n') : report.join('\n');
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`[kafka] ${e.message}`);
    process.exit(1);
  },
);
