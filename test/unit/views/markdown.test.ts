import { strict as assert } from 'assert';
import { escapeMarkdown, markdownFields } from '../../../src/views/markdown';

describe('views/markdown', () => {
  it('backslash-escapes every ASCII punctuation character so nothing renders as markup', () => {
    assert.equal(escapeMarkdown('<b>x</b>&'), '\\<b\\>x\\<\\/b\\>\\&');
    assert.equal(escapeMarkdown('[a](command:x) *y* `z` $(zap)'), '\\[a\\]\\(command\\:x\\) \\*y\\* \\`z\\` \\$\\(zap\\)');
    assert.equal(escapeMarkdown('back\\slash'), 'back\\\\slash');
  });

  it('leaves letters, digits, spaces and non-ASCII text alone', () => {
    assert.equal(escapeMarkdown('orders service 42 ünïcode'), 'orders service 42 ünïcode');
  });

  it('flattens line breaks so a value cannot open a heading or list', () => {
    assert.equal(escapeMarkdown('a\n# b\r\n- c'), 'a \\# b \\- c');
  });

  it('escapes field values and titles but keeps its own bold title and line breaks', () => {
    const md = markdownFields('<g>', [['Client id', '*c*']]);
    assert.equal(md, '**\\<g\\>**\n\nClient id: \\*c\\*  ');
  });
});
