/** Spec §9: caption languages, pl_PL first and the default; the code goes into the file name. */
export const captionLanguages = [
  { value: 'pl_PL', label: 'Polish (pl_PL)' },
  { value: 'en_US', label: 'English, US (en_US)' },
  { value: 'de_DE', label: 'German (de_DE)' },
  { value: 'fr_FR', label: 'French (fr_FR)' },
] as const;

export type CaptionLanguage = (typeof captionLanguages)[number]['value'];

export const DEFAULT_CAPTION_LANGUAGE: CaptionLanguage = 'pl_PL';

/** Files above this are refused before they are read. */
export const MAX_VTT_BYTES = 20 * 1024 * 1024;

export const INVALID_FILE_MESSAGE = 'Please upload a valid VTT file.';
