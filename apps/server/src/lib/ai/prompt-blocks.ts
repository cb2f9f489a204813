/**
 * User content inside a prompt, as data the model cannot take for instructions: each piece is
 * wrapped in its own tag (`<tresc_bazowa>…</tresc_bazowa>`), and anything in the content that
 * would open or close such a tag (of any name: `<zadanie>`, `</tresc_bazowa >`) is neutralised,
 * so pasted text can neither end its block early nor open a second, official-looking one. The
 * prompts say that text inside the tags is material, never instructions.
 */

// `<` followed by an optional `/` and a tag-like name: the start of any tag the content could forge.
const TAG_START = /<(\/?)(?=[\p{L}_])/gu;

/** The content with every tag-like `<name` or `</name` turned into `‹name` / `‹/name`. */
export function neutraliseTags(content: string): string {
  return content.replace(TAG_START, '‹$1');
}

/** `content` as a block of data named `tag` (letters, digits and _ only). */
export function dataBlock(tag: string, content: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(tag)) throw new Error(`not a block name: ${tag}`);
  return `<${tag}>\n${neutraliseTags(content)}\n</${tag}>`;
}
