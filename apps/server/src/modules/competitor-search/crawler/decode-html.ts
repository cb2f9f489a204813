/**
 * Bytes to text for an HTML page or an XML document: the charset the Content-Type names, else
 * the one the document declares in its first 1024 bytes (<meta charset>, <?xml encoding>), else
 * UTF-8. Scanned with indexOf, no pattern that can backtrack over fetched bytes.
 */

const LABEL_CHARS = /^[\w.:-]{1,40}$/;

function valueAfter(text: string, marker: string): string | undefined {
  const at = text.indexOf(marker);
  if (at === -1) return undefined;
  let start = at + marker.length;
  while (text[start] === ' ' || text[start] === '"' || text[start] === "'") start++;
  let end = start;
  while (end < text.length && end - start < 40 && /[\w.:-]/.test(text[end]!)) end++;
  const label = text.slice(start, end);
  return LABEL_CHARS.test(label) ? label : undefined;
}

export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const head = body.subarray(0, 1024).toString('latin1').toLowerCase();
  const label =
    valueAfter((contentType ?? '').toLowerCase(), 'charset=') ??
    valueAfter(head, 'charset=') ??
    valueAfter(head, 'encoding=') ??
    'utf-8';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}
