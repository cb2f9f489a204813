import { convertVttToSrt, decodeVttBytes, type Conversion } from './convert-vtt-to-srt';

export type ConversionRequest = { bytes: ArrayBuffer; previewLimit: number };

/** Bytes of a .vtt file → SRT, or the problem that stops it. */
export function convertFileBytes(bytes: Uint8Array, previewLimit: number): Conversion {
  const decoded = decodeVttBytes(bytes);
  if (!decoded.ok) return decoded;
  return convertVttToSrt(decoded.text, { previewLimit });
}

/**
 * Runs the conversion in a worker where the browser has one (a big file would freeze the page
 * for a second or two), else on this thread after letting the page paint its busy state.
 */
export function runConversion(bytes: ArrayBuffer, previewLimit: number): Promise<Conversion> {
  if (typeof Worker === 'undefined') return convertHere(bytes, previewLimit);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./convert.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      resolve(convertHere(bytes, previewLimit));
      return;
    }
    worker.addEventListener('message', (event: MessageEvent<Conversion>) => {
      worker.terminate();
      resolve(event.data);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      // A worker that cannot start (an old browser, a strict policy) is not the file's fault.
      resolve(convertHere(bytes, previewLimit));
    });
    // Copied, not transferred: the fallback may still need the bytes.
    worker.postMessage({ bytes, previewLimit } satisfies ConversionRequest);
  });
}

async function convertHere(bytes: ArrayBuffer, previewLimit: number): Promise<Conversion> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return convertFileBytes(new Uint8Array(bytes), previewLimit);
}
