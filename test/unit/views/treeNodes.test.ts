import { strict as assert } from 'assert';
import { nodeIds } from '../../../src/views/treeNodes';

describe('views/treeNodes', () => {
  it('encodes raw keys so separators inside ids cannot collide', () => {
    assert.notEqual(nodeIds.group('s', 'a/group/b'), nodeIds.member('s', 'a', 'b'));
    assert.equal(nodeIds.group('s', 'a/b'), 'kgl/s/group/a%2Fb');
  });
});
