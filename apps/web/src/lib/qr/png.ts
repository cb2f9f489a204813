/**
 * A minimal PNG encoder for black-and-white images: 1-bit greyscale, one IDAT, and a pHYs chunk
 * so the image prints at its intended physical size. Compression is the browser's own zlib
 * (CompressionStream 'deflate' is the zlib format PNG wants).
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG (and zlib, gzip) define it. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i += 1) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Pixels per metre for a resolution in dots per inch (pHYs stores whole pixels per metre). */
export function dpiToPixelsPerMetre(dpi: number): number {
  return Math.round(dpi / 0.0254);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  // The CRC covers the type and the data, not the length.
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function zlib(data: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  void writer.write(data as Uint8Array<ArrayBuffer>);
  void writer.close();
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concat(parts);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export type BilevelImage = {
  width: number;
  height: number;
  /** Rows of packed pixels, 1 bit each, most significant first, 1 = white; each row has a
   *  leading filter byte (0) and ceil(width / 8) bytes. */
  scanlines: Uint8Array;
  dpi: number;
};

export async function encodeBilevelPng({ width, height, scanlines, dpi }: BilevelImage): Promise<Uint8Array> {
  const header = new Uint8Array(13);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: greyscale
  header[10] = 0; // compression: deflate
  header[11] = 0; // filter method 0
  header[12] = 0; // no interlace

  const physical = new Uint8Array(9);
  const physicalView = new DataView(physical.buffer);
  const perMetre = dpiToPixelsPerMetre(dpi);
  physicalView.setUint32(0, perMetre);
  physicalView.setUint32(4, perMetre);
  physical[8] = 1; // unit: metre

  return concat([
    new Uint8Array(SIGNATURE),
    chunk('IHDR', header),
    chunk('pHYs', physical),
    chunk('IDAT', await zlib(scanlines)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
