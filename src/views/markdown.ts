/**
 * Markdown text for tooltips. Group ids, client ids and hosts come from the cluster and may contain markup
 * (`<b>x</b>&`, `*`, `[link](...)`); every such value goes through `escapeMarkdown` so it renders as literal text.
 */

/**
 * CommonMark lets any ASCII punctuation be backslash-escaped, which makes it literal: no emphasis, links,
 * raw HTML tags or entities. Escaping all of it (not just a "dangerous" subset) leaves nothing to forget.
 * Line breaks become spaces so a value cannot start a heading, list or block of its own.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, (ch) => `\\${ch}`);
}

/** One "**Name:** value" line per field; names are ours (trusted), values are escaped. */
export function markdownFields(title: string, fields: Array<[name: string, value: string]>): string {
  const lines = [`**${escapeMarkdown(title)}**`, ''];
  for (const [name, value] of fields) {
    lines.push(`${escapeMarkdown(name)}: ${escapeMarkdown(value)}  `);
  }
  return lines.join('\n');
}
