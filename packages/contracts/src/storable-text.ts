import { z } from 'zod';

import { isStorableText, unstorableTextMessage } from './text-rules';

/**
 * A string the database can store, refused otherwise with a message naming the field. Every
 * text field of every request that is recorded (the AI calls' inputs above all) starts here,
 * so a request that could not be recorded is refused before any model is called, e.g.
 * `storableText('The message').max(4_000)`.
 */
export const storableText = (label: string) =>
  z.string().refine(isStorableText, { error: unstorableTextMessage(label), abort: true });

/**
 * The text with each NUL character and each surrogate without its pair replaced by U+FFFD (the
 * replacement character), so the database can store it: for text GEM does not choose, such as
 * a model's answer, which is then shown as it is recorded.
 */
export function toStorableText(value: string): string {
  if (isStorableText(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1); // NaN past the end
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += value.slice(i, i + 2);
      i += 1;
    } else {
      out += unit === 0 || (unit >= 0xd800 && unit <= 0xdfff) ? '\ufffd' : value[i]!;
    }
  }
  return out;
}
