/** DescribeConfigs and IncrementalAlterConfigs on the GROUP resource over the wire, as a share group's configs are read and set. */
import assert from 'node:assert/strict';
import { errorCodeOf } from '../../../../src/protocol/errorCodes';
import { DescribeConfigsRequest } from '../../../../src/protocol/messages/describeConfigsRequest';
import { DescribeConfigsResponse } from '../../../../src/protocol/messages/describeConfigsResponse';
import { IncrementalAlterConfigsRequest } from '../../../../src/protocol/messages/incrementalAlterConfigsRequest';
import { IncrementalAlterConfigsResponse } from '../../../../src/protocol/messages/incrementalAlterConfigsResponse';
import { codecExchange, serverForSuite } from './serverTestKit';

const GROUP = 32;
const TOPIC = 2;

describe('simulator Kafka server: group configs', function () {
  this.timeout(20000);
  const suite = serverForSuite();
  const port = (): number => suite.env.server.endpoints()[0].port;
  const alter = (resourceType: number, configs: { name: string; configOperation: number; value: string | null }[], validateOnly = false) =>
    codecExchange(port(), IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse, 1, { resources: [{ resourceType, resourceName: 'cfg-share', configs }], validateOnly });
  const describe = async (keys: string[] | null) => {
    const response = await codecExchange(port(), DescribeConfigsRequest, DescribeConfigsResponse, 4, { resources: [{ resourceType: GROUP, resourceName: 'cfg-share', configurationKeys: keys }], includeSynonyms: false, includeDocumentation: false });
    return response.results[0];
  };

  it('sets, lists and deletes share configs, refusing bad values, unknown names and other resource types', async () => {
    const valid = await alter(GROUP, [{ name: 'share.auto.offset.reset', configOperation: 0, value: 'earliest' }, { name: 'share.delivery.count.limit', configOperation: 0, value: '3' }]);
    assert.deepEqual([valid.responses[0].errorCode, valid.responses[0].errorMessage], [0, null]);
    assert.deepEqual(suite.env.sim.shares.settings('cfg-share').deliveryCountLimit, 3);
    const listed = await describe(null);
    const byName = new Map(listed.configs.map((c) => [c.name, [c.value, c.configSource]]));
    assert.deepEqual([byName.get('share.auto.offset.reset'), byName.get('share.delivery.count.limit'), byName.get('share.record.lock.duration.ms')], [['earliest', 8], ['3', 8], ['30000', 5]]);

    for (const [name, value, message] of [
      ['share.record.lock.duration.ms', '70000', 'share.record.lock.duration.ms must be in the range 15000 to 60000 inclusive.'],
      ['share.delivery.count.limit', 'five', 'Invalid value five for configuration share.delivery.count.limit: Not a number of type INT'],
      ['share.isolation.level', 'serializable', 'Invalid value serializable for configuration share.isolation.level: String must be one of: read_committed, read_uncommitted'],
      ['errors.deadletterqueue.topic.name', '__dlq', "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'"],
      ['consumer.session.timeout.ms', '50000', 'The simulator does not model the group config consumer.session.timeout.ms.'],
      ['no.such.config', 'x', 'Unknown group config name: no.such.config'],
    ]) {
      const refused = await alter(GROUP, [{ name, configOperation: 0, value }]);
      assert.deepEqual([refused.responses[0].errorCode, refused.responses[0].errorMessage], [errorCodeOf('INVALID_CONFIG'), message]);
    }
    // A refused request changes nothing, nor does a validate-only one.
    assert.equal(suite.env.sim.shares.settings('cfg-share').deliveryCountLimit, 3);
    assert.equal((await alter(GROUP, [{ name: 'share.delivery.count.limit', configOperation: 0, value: '9' }], true)).responses[0].errorCode, 0);
    assert.equal(suite.env.sim.shares.settings('cfg-share').deliveryCountLimit, 3);

    assert.equal((await alter(GROUP, [{ name: 'share.delivery.count.limit', configOperation: 1, value: null }])).responses[0].errorCode, 0);
    assert.deepEqual((await describe(['share.delivery.count.limit'])).configs.map((c) => [c.name, c.value, c.configSource]), [['share.delivery.count.limit', '5', 5]]);
    const topic = await alter(TOPIC, [{ name: 'retention.ms', configOperation: 0, value: '1' }]);
    assert.equal(topic.responses[0].errorCode, errorCodeOf('INVALID_REQUEST'));
  });
});
