import { convertFileBytes, type ConversionRequest } from './run-conversion';

// Converts off the main thread, so the page stays responsive with a 20 MB file. (Typed as a
// plain message port: the web app's types are the window's, not a worker's.)
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<ConversionRequest>) => void): void;
  postMessage(message: unknown): void;
};

scope.addEventListener('message', (event) => {
  const { bytes, previewLimit } = event.data;
  scope.postMessage(convertFileBytes(new Uint8Array(bytes), previewLimit));
});
