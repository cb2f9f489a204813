/** Salesforce Ids: key prefixes, and 15- and 18-character Ids made from a number. */

/** Key prefixes of the standard objects served, and of the org and user ids. */
export const keyPrefixes = {
  Account: '001',
  Contact: '003',
  Lead: '00Q',
  Campaign: '701',
  CampaignMember: '00v',
  Organization: '00D',
  User: '005',
} as const;

const suffixAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';

/** The 18-character form of a 15-character Id (the case-encoding suffix added). */
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

/** An 18-character Salesforce Id: the key prefix, then `n` in base 36 (pod `0R`). */
export function salesforceId(prefix: string, n: number): string {
  const body = n.toString(36).toUpperCase().padStart(10, '0');
  return to18(`${prefix}0R${body}`.slice(0, 15));
}
