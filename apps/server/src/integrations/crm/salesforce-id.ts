/**
 * Salesforce record ids: 15 case-sensitive characters (a 3-character key prefix naming the
 * object, then the record's number in base 62) and the 18-character form that adds a
 * 3-character case-safe checksum, so the id survives case-insensitive systems.
 */

/** An 18-character id as Salesforce writes it: letters and digits only. */
export const SALESFORCE_ID_18 = /^[a-z0-9]{18}$/i;

const suffixAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The 18-character form of a 15-character id: each 5-character chunk's upper-case letters as 5 bits. */
export function to18(id15: string): string {
  let suffix = '';
  for (let chunk = 0; chunk < 3; chunk += 1) {
    let bits = 0;
    for (let i = 0; i < 5; i += 1) {
      const c = id15.charCodeAt(chunk * 5 + i);
      if (c >= 65 && c <= 90) bits |= 1 << i;
    }
    suffix += suffixAlphabet[bits];
  }
  return id15 + suffix;
}

/** The n-th record's 18-character id under a key prefix (e.g. '701' for campaigns), on pod '7Q'. */
export function demoRecordId(prefix: string, n: number): string {
  let digits = '';
  let rest = n;
  do {
    digits = base62[rest % 62]! + digits;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return to18(`${prefix}7Q${digits.padStart(10, '0')}`);
}
