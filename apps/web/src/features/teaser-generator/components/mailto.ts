/** A mailto: link that opens the mail client with `body` as the message (RFC 6068). */
export function mailtoHref(body: string): string {
  // encodeURIComponent leaves nothing that could end the body early (&, #, ?) and turns line
  // breaks into %0A, which mail clients show as new lines.
  return `mailto:?body=${encodeURIComponent(body)}`;
}
