import { strict as assert } from 'assert';
import { SourceRegistry } from '../../../src/sources/sourceRegistry';
import { FakeControl, FakeSource } from '../views/fakeSource';

describe('views/SourceRegistry', () => {
  it('keeps sources in registration order and reports additions and removals', async () => {
    const registry = new SourceRegistry();
    let changes = 0;
    registry.onDidChangeSources(() => changes++);
    const control = new FakeControl();
    registry.add({ source: new FakeSource('sim', 'Demo'), control });
    registry.add({ source: new FakeSource('prod', 'Prod', 'kafka') });
    assert.deepEqual(registry.list().map((e) => e.source.id), ['sim', 'prod']);
    assert.equal(registry.get('sim')?.control, control);
    await registry.remove('sim');
    assert.deepEqual(registry.list().map((e) => e.source.id), ['prod']);
    assert.equal(changes, 3);
  });

  it('refuses a duplicate id and names a missing one', () => {
    const registry = new SourceRegistry();
    registry.add({ source: new FakeSource('sim', 'Demo') });
    assert.throws(() => registry.add({ source: new FakeSource('sim', 'Other') }), /"sim" is already registered/);
    assert.throws(() => registry.require('gone'), /Cluster "gone" is no longer available/);
  });

  it('disposes removed sources, ignores unknown ids, and disposes everything at the end', async () => {
    const registry = new SourceRegistry();
    const a = new FakeSource('a', 'A');
    const b = new FakeSource('b', 'B');
    registry.add({ source: a });
    registry.add({ source: b });
    await registry.remove('a');
    assert.ok(a.disposed);
    await registry.remove('a');
    await registry.disposeAll();
    assert.ok(b.disposed);
    assert.deepEqual(registry.list(), []);
  });

  it('waits for a source registered later, and gives up after the timeout', async () => {
    const registry = new SourceRegistry();
    const present = new FakeSource('now', 'Now');
    registry.add({ source: present });
    assert.equal((await registry.waitFor('now', 10))?.source, present);
    const later = new FakeSource('later', 'Later');
    const waiting = registry.waitFor('later', 5000);
    registry.add({ source: new FakeSource('other', 'Other') });
    registry.add({ source: later });
    assert.equal((await waiting)?.source, later);
    assert.equal(await registry.waitFor('never', 20), undefined);
  });
});
