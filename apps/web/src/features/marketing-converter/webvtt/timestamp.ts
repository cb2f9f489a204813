/**
 * W3C WebVTT §6.3 "collect a WebVTT timestamp": `hh:mm:ss.ttt` or `mm:ss.ttt`, hours of any
 * number of digits, minutes and seconds of exactly two, milliseconds of exactly three.
 * Returns whole milliseconds and the position after the timestamp, or null on failure.
 */
export function collectTimestamp(input: string, start: number): { ms: number; end: number } | null {
  let position = start;
  const digits = () => {
    const from = position;
    while (position < input.length && isAsciiDigit(input.charCodeAt(position))) position += 1;
    return input.slice(from, position);
  };

  if (position >= input.length || !isAsciiDigit(input.charCodeAt(position))) return null;
  const first = digits();
  let value1 = Number(first);
  const hoursFirst = first.length !== 2 || value1 > 59;

  if (input[position] !== ':') return null;
  position += 1;
  const second = digits();
  if (second.length !== 2) return null;
  let value2 = Number(second);

  let value3: number;
  if (hoursFirst || input[position] === ':') {
    if (input[position] !== ':') return null;
    position += 1;
    const third = digits();
    if (third.length !== 2) return null;
    value3 = Number(third);
  } else {
    value3 = value2;
    value2 = value1;
    value1 = 0;
  }

  if (input[position] !== '.') return null;
  position += 1;
  const fraction = digits();
  if (fraction.length !== 3) return null;
  if (value2 > 59 || value3 > 59) return null;

  return { ms: ((value1 * 60 + value2) * 60 + value3) * 1000 + Number(fraction), end: position };
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** WebVTT "ASCII whitespace": tab, LF, FF, CR, space. */
export function isWebVttWhitespace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r';
}

/** `hh:mm:ss.ttt`, as a WebVTT file would write it (for messages). */
export function formatVttTime(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(ms % 1000, 3)}`;
}

export function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
