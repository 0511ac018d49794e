import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkImports } from '../../../scripts/checkImports';

/** A throwaway src/ tree: file path (under src/) → contents. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
  const src = path.join(root, 'src');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    fs.writeFileSync(path.join(src, file), text);
  }
  return src;
}

describe('import graph check (scripts/checkImports.js)', () => {
  it('finds no file-level cycle in src/ and the simulator\'s rooms in their order', () => {
    const { files, problems } = checkImports(path.resolve('src'));
    assert.ok(files > 100, `${files} files read`);
    assert.deepEqual(problems, []);
  });

  it('fails on a file-level cycle anywhere in src/, type-only imports included', () => {
    const src = tree({
      'views/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'views/b.ts': "import type { C } from '../model/c';\nexport const b = 1;\nexport type B = C;\n",
      'model/c.ts': "import type { B } from '../views/b';\nexport type C = B | number;\n",
    });
    const { problems } = checkImports(src);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^import cycle: .*views\/b\.ts -> .*model\/c\.ts -> .*views\/b\.ts$|^import cycle: .*model\/c\.ts -> .*views\/b\.ts -> .*model\/c\.ts$/);
  });

  it('fails on an import against the simulator\'s folder order, between siblings too', () => {
    const src = tree({
      'simulator/log/partitionLog.ts': "import { GroupCoordinator } from '../coordinator/group/groupCoordinator';\nexport const log = GroupCoordinator;\n",
      'simulator/coordinator/group/groupCoordinator.ts': "import { consumer } from '../../clients/consumer/consumer';\nexport const GroupCoordinator = consumer;\n",
      'simulator/clients/consumer/consumer.ts': "import { clock } from '../../common/clock';\nexport const consumer = clock;\n",
      'simulator/common/clock.ts': 'export const clock = 0;\n',
    });
    const { problems } = checkImports(src);
    assert.equal(problems.length, 2, problems.join('\n'));
    const all = problems.join('\n');
    assert.match(all, /partitionLog\.ts -> .*groupCoordinator\.ts: log imports coordinator \(coordinator sits above log\)/);
    assert.match(all, /groupCoordinator\.ts -> .*consumer\.ts: coordinator imports clients \(siblings never import each other\)/);
  });

  it('fails on a simulator folder the order does not name', () => {
    const src = tree({ 'simulator/attic/old.ts': 'export const old = 1;\n' });
    assert.match(checkImports(src).problems.join('\n'), /simulator room "attic" is not in SIMULATOR_LAYERS/);
  });
});
