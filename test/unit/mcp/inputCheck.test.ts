import { strict as assert } from 'assert';
import { inputProblems } from '../../../src/mcp/inputCheck';
import { MCP_TOOLS } from '../../../src/mcp/toolDeclarations';

function schemaOf(name: string): (typeof MCP_TOOLS)[number]['inputSchema'] {
  const tool = MCP_TOOLS.find((t) => t.name === `kafkaGroupLens_${name}`);
  assert.ok(tool, name);
  return tool.inputSchema;
}

describe('MCP tool input check', () => {
  it('accepts input that fits the schema', () => {
    assert.deepEqual(inputProblems({ group: 'g', scenario: 'to-offset', value: '4', topics: ['orders:0'] }, schemaOf('planReset')), []);
    assert.deepEqual(inputProblems({ scenario: '{"durationMs":1}' }, schemaOf('simulate')), [], 'the scenario as JSON text, as its description allows');
  });

  it('names each field that is missing, of the wrong type, outside its enum or unknown', () => {
    assert.deepEqual(inputProblems({ scenario: 'to-somewhere', topics: ['orders', 3], extra: true }, schemaOf('planReset')), [
      '"group" is required: The consumer group id, exactly as listGroups shows it.',
      '"scenario" must be one of to-earliest, to-latest, to-current, to-offset, shift-by, to-datetime, by-duration, got "to-somewhere"',
      '"topics[1]" must be a string, got number',
      '"extra" is not an input of this tool; its inputs are cluster, group, scenario, value, topics',
    ]);
    assert.deepEqual(inputProblems([], schemaOf('listGroups')), ['the arguments must be a JSON object (see the tool\'s inputSchema), got array']);
  });
});
