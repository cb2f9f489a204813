/** Spec §9: the QR generator's controls (the ranges are the contracts', which the server checks too). */
export { PRINT_DPI, QR_DPI, QR_PADDING, QR_SIZE, QUIET_ZONE_MODULES } from '@gem/contracts/qr-settings';

export const EMPTY_TEXT_MESSAGE = 'Please enter text to generate a QR code';
