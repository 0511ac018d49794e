/**
 * `npm run bench`: runs every benchmark in its own process (so one's memory does not colour
 * another's figures) and prints their figures. `npm run bench -- assignors` runs one.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const BENCHES = ['simulator', 'assignors', 'timeline', 'kafka', 'simulatorServer', 'serverAttacks', 'protocol', 'health', 'activation'];

const wanted = process.argv.slice(2);
const selected = wanted.length ? BENCHES.filter((b) => wanted.includes(b)) : BENCHES;
const unknown = wanted.filter((w) => !BENCHES.includes(w));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${BENCHES.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const name of selected) {
  const file = path.join(__dirname, `${name}.ts`);
  if (!fs.existsSync(file)) {
    console.log(`\n== ${name}: not present`);
    continue;
  }
  console.log(`\n== ${name}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', file], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`== ${name} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exit(failed ? 1 : 0);
