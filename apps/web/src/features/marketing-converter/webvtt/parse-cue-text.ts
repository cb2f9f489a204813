import { decodeHTML } from 'entities/decode';

/** Styles SRT can carry. Bit flags, so a run can be bold and italic at once. */
export const BOLD = 1;
export const ITALIC = 2;
export const UNDERLINE = 4;

/** Text with one set of styles. */
export type Run = { text: string; style: number };
/** One line of cue text, as the author broke it. */
export type StyledLine = Run[];

const STYLE_OF: Readonly<Record<string, number>> = { b: BOLD, i: ITALIC, u: UNDERLINE };
// The internal node objects of §6.4; any other tag is ignored, its text kept.
const NODE_NAMES = new Set(['c', 'i', 'b', 'u', 'ruby', 'rt', 'v', 'lang']);

type Token =
  | { type: 'start'; name: string }
  | { type: 'end'; name: string }
  | { type: 'timestamp' }
  | { type: 'text'; text: string };

/**
 * W3C WebVTT §6.4 "cue text parsing rules", flattened: b, i and u become styles; c, v, lang,
 * ruby and timestamp tags go, their text stays. Ruby text (rt) follows its base in brackets,
 * e.g. 漢字(かんじ), so nothing is lost. HTML character references are decoded.
 */
export function parseCueText(input: string): StyledLine[] {
  const lines: StyledLine[] = [[]];
  const open: string[] = [];
  let style = 0;

  const restyle = () => {
    style = 0;
    for (const name of open) style |= STYLE_OF[name] ?? 0;
  };
  const emit = (text: string) => {
    const parts = text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part === '') return;
      const line = lines[lines.length - 1]!;
      const last = line[line.length - 1];
      if (last && last.style === style) last.text += part;
      else line.push({ text: part, style });
    });
  };
  const push = (name: string) => {
    if (name === 'rt') emit('(');
    open.push(name);
    restyle();
  };
  const pop = () => {
    const name = open.pop();
    restyle();
    if (name === 'rt') emit(')');
  };

  let position = 0;
  while (position < input.length) {
    const { token, end } = nextToken(input, position);
    position = end;
    const current = open[open.length - 1];
    switch (token.type) {
      case 'text':
        emit(token.text);
        break;
      case 'start':
        if (token.name === 'rt') {
          if (current === 'ruby') push('rt');
        } else if (NODE_NAMES.has(token.name)) {
          push(token.name);
        }
        break;
      case 'end':
        if (current !== undefined && token.name === current) {
          pop();
        } else if (token.name === 'ruby' && current === 'rt') {
          pop();
          pop();
        }
        break;
      case 'timestamp':
        break;
    }
  }
  // Unclosed ruby text still gets its closing bracket.
  while (open.length > 0) pop();
  return lines;
}

const isTagSpace = (c: string | undefined) => c === '\t' || c === '\n' || c === '\f' || c === ' ';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** The §6.4 cue text tokenizer. Classes and annotations are read past, not kept. */
function nextToken(input: string, start: number): { token: Token; end: number } {
  if (input[start] !== '<') {
    const next = input.indexOf('<', start);
    const end = next === -1 ? input.length : next;
    // A run ends at '<' or the end, where a character reference ends too, so decoding the
    // whole run is the tokenizer's "character reference in data state".
    return { token: { type: 'text', text: decodeHTML(input.slice(start, end)) }, end };
  }

  let position = start + 1;
  let state: 'tag' | 'start' | 'class' | 'annotation' | 'end' | 'timestamp' = 'tag';
  let name = '';
  const startTag = () => ({ token: { type: 'start', name } as Token, end: position });

  for (;;) {
    const c = input[position];
    switch (state) {
      case 'tag':
        if (c === undefined) return startTag();
        if (c === '>') return { token: { type: 'start', name: '' }, end: position + 1 };
        if (isTagSpace(c)) state = 'annotation';
        else if (c === '.') state = 'class';
        else if (c === '/') state = 'end';
        else if (isDigit(c)) state = 'timestamp';
        else {
          name = c;
          state = 'start';
        }
        break;
      case 'start':
        if (c === undefined) return startTag();
        if (c === '>') {
          position += 1;
          return startTag();
        }
        if (isTagSpace(c)) state = 'annotation';
        else if (c === '.') state = 'class';
        else name += c;
        break;
      case 'class':
      case 'annotation':
        if (c === undefined) return startTag();
        if (c === '>') {
          position += 1;
          return startTag();
        }
        if (state === 'class' && isTagSpace(c)) state = 'annotation';
        break;
      case 'end':
        if (c === undefined) return { token: { type: 'end', name }, end: position };
        if (c === '>') return { token: { type: 'end', name }, end: position + 1 };
        name += c;
        break;
      case 'timestamp':
        if (c === undefined) return { token: { type: 'timestamp' }, end: position };
        if (c === '>') return { token: { type: 'timestamp' }, end: position + 1 };
        break;
    }
    position += 1;
  }
}
