import { strict as assert } from 'node:assert';
import { describeGroupsRequest, listGroupsRequest } from '../../../../src/kafka/requests/groupRequests';
import { hex, WireWriter } from '../../protocol/wire';

describe('groupRequests', () => {
  describe('listGroupsRequest', () => {
    it('sends an empty body up to v2 and empty filters in the flexible versions', () => {
      assert.equal(hex(listGroupsRequest().build(2).body), '');
      // header tags, [states] empty, [types] empty, body tags
      assert.equal(hex(listGroupsRequest().build(5).body), '00010100');
      assert.equal(hex(listGroupsRequest().build(4).body), '000100');
      assert.equal(listGroupsRequest().build(5).apiKey, 16);
    });

    it('decodes v2 groups without state or type', () => {
      const payload = new WireWriter()
        .int32(0)
        .int16(0)
        .array([['g1', 'consumer']], (w, [id, type]) => w.string(id).string(type))
        .toBuffer();
      assert.deepEqual(listGroupsRequest().build(2).decode(payload), { errorCode: 0, groups: [{ groupId: 'g1', protocolType: 'consumer', groupState: null, groupType: null }] });
    });

    it('decodes v5 groups with state and type, skipping tagged fields', () => {
      const payload = new WireWriter()
        .emptyTaggedFields() // response header
        .int32(0)
        .int16(0)
        .compactArray([['g1', 'consumer', 'Stable', 'consumer'], ['s', '', 'Empty', 'classic']], (w, g) => {
          w.compactString(g[0]).compactString(g[1]).compactString(g[2]).compactString(g[3]).emptyTaggedFields();
        })
        .emptyTaggedFields()
        .toBuffer();
      assert.deepEqual(listGroupsRequest().build(5).decode(payload).groups, [
        { groupId: 'g1', protocolType: 'consumer', groupState: 'Stable', groupType: 'consumer' },
        { groupId: 's', protocolType: '', groupState: 'Empty', groupType: 'classic' },
      ]);
    });

    it('offers v0..v5 and refuses versions Kafka does not define', () => {
      assert.deepEqual([listGroupsRequest().minVersion, listGroupsRequest().maxVersion], [0, 5]);
      assert.throws(() => listGroupsRequest().build(6), /ListGroups v6 is not a version Kafka defines/);
    });
  });

  describe('describeGroupsRequest', () => {
    const member = { id: 'm1', instance: 'static-1', client: 'c', host: '/127.0.0.1', metadata: Buffer.from([0, 1]), assignment: Buffer.alloc(0) };

    it('encodes group ids and, from v3, include_authorized_operations=false', () => {
      assert.equal(hex(describeGroupsRequest(['ab']).build(2).body), '0000000100026162');
      assert.equal(hex(describeGroupsRequest(['ab']).build(4).body), '000000010002616200');
      assert.equal(hex(describeGroupsRequest(['ab']).build(5).body), '00' + '02036162' + '00' + '00');
    });

    it('decodes v4 members with their group.instance.id', () => {
      const payload = new WireWriter()
        .int32(0)
        .array([0], (w) => {
          w.int16(0).string('g').string('Stable').string('consumer').string('range');
          w.array([member], (x, m) => x.string(m.id).string(m.instance).string(m.client).string(m.host).bytes(m.metadata).bytes(m.assignment));
          w.int32(-2147483648);
        })
        .toBuffer();
      const [group] = describeGroupsRequest(['g']).build(4).decode(payload);
      assert.deepEqual(group, {
        errorCode: 0,
        errorMessage: null,
        groupId: 'g',
        groupState: 'Stable',
        protocolType: 'consumer',
        protocolData: 'range',
        members: [{ memberId: 'm1', groupInstanceId: 'static-1', clientId: 'c', clientHost: '/127.0.0.1', memberMetadata: Uint8Array.from([0, 1]), memberAssignment: new Uint8Array(0) }],
      });
    });

    it('decodes v6 (flexible) with a per-group error message', () => {
      const payload = new WireWriter()
        .emptyTaggedFields()
        .int32(0)
        .compactArray([0], (w) => {
          w.int16(69).compactString('Group g not found.').compactString('g').compactString('Dead').compactString('').compactString('');
          w.compactArray([], () => undefined);
          w.int32(0).emptyTaggedFields();
        })
        .emptyTaggedFields()
        .toBuffer();
      const [group] = describeGroupsRequest(['g']).build(6).decode(payload);
      assert.equal(group.errorCode, 69);
      assert.equal(group.errorMessage, 'Group g not found.');
      assert.equal(group.groupState, 'Dead');
      assert.deepEqual(group.members, []);
    });

    it('decodes v0 (no throttle time, no instance id)', () => {
      const payload = new WireWriter()
        .array([0], (w) => {
          w.int16(0).string('g').string('Empty').string('consumer').string('');
          w.array([member], (x, m) => x.string(m.id).string(m.client).string(m.host).bytes(new Uint8Array(0)).bytes(new Uint8Array(0)));
        })
        .toBuffer();
      const [group] = describeGroupsRequest(['g']).build(0).decode(payload);
      assert.equal(group.members[0].groupInstanceId, null);
      assert.deepEqual(group.members[0].memberMetadata, new Uint8Array(0));
    });
  });
});
