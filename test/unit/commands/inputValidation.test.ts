import { strict as assert } from 'assert';
import {
  numberRule,
  pauseSecondsRule,
  sessionTimeoutRule,
  validateGroupId,
  validateKafkaName,
} from '../../../src/commands/inputValidation';

describe('commands/inputValidation', () => {
  describe('validateGroupId', () => {
    it('accepts any non-empty id up to 255 characters, markup included', () => {
      assert.equal(validateGroupId('orders'), undefined);
      assert.equal(validateGroupId('<b>x</b>&'), undefined);
      assert.equal(validateGroupId('g'.repeat(255)), undefined);
    });

    it('rejects empty, blank, too long and existing ids with a reason', () => {
      assert.match(validateGroupId('') ?? '', /must not be empty/);
      assert.match(validateGroupId('   ') ?? '', /must not be empty/);
      assert.match(validateGroupId('g'.repeat(256)) ?? '', /at most 255 characters \(it has 256\)/);
      assert.match(validateGroupId('orders', new Set(['orders'])) ?? '', /already exists; use "Add Consumer…"/);
    });
  });

  describe('validateKafkaName', () => {
    it('applies Kafka topic-name rules', () => {
      assert.equal(validateKafkaName('Topic name', 'orders.v1_eu-west'), undefined);
      assert.match(validateKafkaName('Topic name', '') ?? '', /must not be empty/);
      assert.match(validateKafkaName('Topic name', '..') ?? '', /cannot be "\." or "\.\."/);
      assert.match(validateKafkaName('Group instance id', 'a b') ?? '', /Group instance id may contain only/);
      assert.match(validateKafkaName('Topic name', 't'.repeat(250)) ?? '', /at most 249/);
      assert.equal(validateKafkaName('Topic name', 't'.repeat(249)), undefined);
    });
  });

  describe('numberRule', () => {
    const rule = numberRule({ name: 'Count', min: 1, max: 10, integer: true });

    it('accepts plain decimal numbers in range and parses them', () => {
      assert.equal(rule.validate(' 7 '), undefined);
      assert.equal(rule.parse('7'), 7);
      assert.equal(pauseSecondsRule.parse('2.5'), 2.5);
    });

    it('rejects empty text, other notations, fractions for integers and values out of range', () => {
      assert.match(rule.validate('') ?? '', /must be a whole number/);
      assert.match(rule.validate('0x5') ?? '', /must be a whole number/);
      assert.match(rule.validate('1e1') ?? '', /must be a whole number/);
      assert.match(rule.validate('-3') ?? '', /between 1 and 10/);
      assert.match(rule.validate('2.5') ?? '', /must be a whole number/);
      assert.match(rule.validate('11') ?? '', /between 1 and 10/);
      assert.throws(() => rule.parse('abc'), /Count must be a whole number/);
    });

    it('bounds session.timeout.ms by the broker defaults', () => {
      assert.equal(sessionTimeoutRule.validate('45000'), undefined);
      assert.match(sessionTimeoutRule.validate('5999') ?? '', /between 6000 and 1800000 ms/);
      assert.match(sessionTimeoutRule.validate('1800001') ?? '', /between 6000 and 1800000 ms/);
    });
  });
});
