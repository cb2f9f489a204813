/**
 * What an administrator typed as an allowance: '' is no limit (null); digits with or without
 * thousands separators are a number; anything else is not an allowance ('invalid'). The server
 * checks the range (not negative, at most 10^12) and says so in its words.
 */
export function parseTokens(text: string): number | null | 'invalid' {
  const plain = text.replace(/[\s,_]/g, '');
  if (plain === '') return null;
  if (/^-\d+$/.test(plain)) return Number(plain);
  return /^\d+$/.test(plain) ? Number(plain) : 'invalid';
}
