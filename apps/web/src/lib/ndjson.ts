/** A stream broke its format: a line that is not JSON, or (for its reader) an early end. */
export class BrokenStreamError extends Error {
  override readonly name = 'BrokenStreamError';
}

/**
 * The lines of an NDJSON body, parsed, as they arrive. A line split across chunks (or a
 * multi-byte character split across chunks) is put back together first. Stopping early (a
 * `break`, a throw, an abort) cancels the body, so the server sees the connection close.
 */
export async function* readNdjson(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<unknown, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        buffer += decoder.decode();
      } else {
        buffer += decoder.decode(value, { stream: true });
      }
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield parseLine(line);
        newline = buffer.indexOf('\n');
      }
      if (finished) break;
    }
    const rest = buffer.trim();
    if (rest) yield parseLine(rest);
  } finally {
    // The consumer stopped early (a final event, an error, an abort): let the server know.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new BrokenStreamError('The server sent a line that is not JSON.', { cause: error });
  }
}
