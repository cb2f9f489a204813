import { cutAtGrapheme } from '@gem/contracts/text-rules';

/** The name a download gets when the brief has no usable title. */
export const FALLBACK_FILE_NAME = 'marketing-brief';

/** The longest file name before its extension, in characters (user-perceived ones are never cut). */
export const FILE_NAME_MAX = 100;

/** Names Windows reserves for devices, with or without an extension ('CON', 'com1.report'). */
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9¹²³]|LPT[0-9¹²³])(?=\s*(?:\.|$))/i;

const NOT_IN_FILE_NAMES =
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

const isDotOrSpace = (character: string | undefined) => character === '.' || character === ' ';

/**
 * The name without leading and trailing dots and spaces: Windows drops trailing ones, and a
 * leading dot hides the file on macOS and Linux. (A loop: a regex for both ends is quadratic.)
 */
function trimDotsAndSpaces(name: string): string {
  let start = 0;
  let end = name.length;
  while (start < end && isDotOrSpace(name[start])) start += 1;
  while (end > start && isDotOrSpace(name[end - 1])) end -= 1;
  return name.slice(start, end);
}

/**
 * A download's file name from the brief's title (the campaign name): safe on Windows, macOS
 * and Linux. Characters file systems refuse (/ \ : * ? " < > |), control characters, invisible
 * direction marks (which can make 'cod.exe' read as 'exe.doc') and zero-width characters are
 * removed; runs of spaces become one; leading and trailing dots and spaces go; the name is cut
 * to FILE_NAME_MAX characters; a Windows device name ('CON', 'lpt1.plan') gets '-brief' after it;
 * an empty result becomes 'marketing-brief'.
 */
export function briefFileName(
  title: string,
  extension: 'xlsx' | 'docx' | 'zip' | 'csv' | 'txt' | 'png' | 'svg',
): string {
  let name = title.normalize('NFC').replace(NOT_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ');
  name = trimDotsAndSpaces(cutAtGrapheme(trimDotsAndSpaces(name), FILE_NAME_MAX));
  if (name === '') name = FALLBACK_FILE_NAME;
  // 'CON.report' is as reserved as 'CON': the word after the device name makes it a name.
  name = name.replace(WINDOWS_RESERVED, '$1-brief');
  return `${name}.${extension}`;
}
