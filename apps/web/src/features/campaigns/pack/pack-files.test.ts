import { briefFieldLabels, briefFields } from '@gem/contracts/brief-creator';
import { strFromU8, unzipSync } from 'fflate';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';

import { formatDateTime } from '@/lib/format-date';
import { encodeQr } from '@/lib/qr/encode-qr';
import { computeQrLayout, paddingForQuietZone } from '@/lib/qr/qr-layout';
import { QR_DPI, QR_SIZE, QUIET_ZONE_MODULES } from '@/lib/qr/qr-settings';

import { LINKS_CSV_HEADER, linksCsv, QR_ROW_LABEL } from './links-csv';
import { ALREADY_TAGGED, buildPackDocx, NO_APPROVED_ASSET, NO_LANDING_PAGE } from './pack-docx';
import { buildPackZip, LINKS_CSV, QR_PNG, QR_SVG } from './pack-files';
import { buildPackQr } from './pack-qr';
import { emptyPack, testPack } from './testing/test-pack';

/** A document's parts: its paragraphs as text (runs joined, line breaks as \n), its links' targets. */
function readDocx(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const xml = new DOMParser().parseFromString(strFromU8(files['word/document.xml']!), 'application/xml');
  expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
  const paragraphs = Array.from(xml.getElementsByTagName('w:p')).map((paragraph) =>
    Array.from(paragraph.getElementsByTagName('*'))
      .map((node) => (node.tagName === 'w:t' ? node.textContent : node.tagName === 'w:br' ? '\n' : ''))
      .join(''),
  );
  const rels = strFromU8(files['word/_rels/document.xml.rels']!);
  const targets = Array.from(rels.matchAll(/Target="([^"]*)" TargetMode="External"/g), (m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );
  return { paragraphs, targets, core: strFromU8(files['docProps/core.xml']!) };
}

/** The packs here have no segment saved: nothing is read. */
const noCsv = (path: string): Promise<Uint8Array> => Promise.reject(new Error(`Not asked for: ${path}`));

/** The CSV's text with its byte order mark (a TextDecoder drops it by default). */
const csvText = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

const tagged = (source: string, medium: string) =>
  `https://gem.example/webinar?utm_source=${source}&utm_medium=${medium}&utm_campaign=spring-webinar`;

describe('the pack’s Word document', () => {
  it('has the campaign, the brief’s latest version and every approved asset by channel with its tracked links', async () => {
    const { paragraphs, targets, core } = readDocx(await buildPackDocx(testPack()));
    const after = (text: string, count = 1) => {
      const at = paragraphs.indexOf(text);
      expect(at, text).toBeGreaterThan(0);
      return paragraphs.slice(at + 1, at + 1 + count);
    };

    expect(paragraphs.slice(0, 2)).toEqual([
      'Spring Webinar',
      `Campaign pack  ·  Made ${formatDateTime('2026-03-15T08:00:00.000Z')}`,
    ]);
    expect(after('Campaign', 6)).toEqual([
      'Owner: Marketer',
      'Status: Active',
      'Landing page: https://gem.example/webinar',
      'CRM campaign: 701000000000001AAA',
      'utm_campaign: spring-webinar',
      `QR code: ${tagged('qr', 'print')}`,
    ]);
    expect(after('Brief (version 3)')).toEqual(['Campaign name']);
    for (const field of briefFields) expect(paragraphs).toContain(briefFieldLabels[field]);
    expect(after('Key messages')).toEqual(['Cash flow visibility pays for itself.']);

    expect(after('Approved assets')).toEqual(['LinkedIn post']);
    expect(after('LinkedIn post', 8)).toEqual([
      `Approved version 2 · saved by Ola Nowak on ${formatDateTime('2026-03-14T10:30:00.000Z')} · utm_source=linkedin, utm_medium=social`,
      'Made from: Brief version 2 · Tool Social media post · Prompt social-media-post@1a2b3c4d · Model gpt-4o · Instruction: Shorter',
      'Sources: PwC: CFO 2027 (https://www.pwc.pl/pl/raporty/cfo-2027.html)',
      `Dołącz do webinaru: ${tagged('linkedin', 'social')}.`,
      'Partner: https://partner.example/cfo?utm_source=partner',
      'Tracked links',
      `${tagged('linkedin', 'social')}\nAs written: https://gem.example/webinar`,
      `https://partner.example/cfo?utm_source=partner (${ALREADY_TAGGED})`,
    ]);
    expect(after('E-mail teaser', 4)).toEqual([
      `Approved version 1 · saved by Marketer on ${formatDateTime('2026-03-14T11:00:00.000Z')} · utm_source=newsletter, utm_medium=email`,
      'Webinar dla CFO: zapisz się już dziś.',
      'Tracked links',
      'No links in this text.',
    ]);
    expect(after('Sources')).toEqual(['PwC: CFO 2027\nhttps://www.pwc.pl/pl/raporty/cfo-2027.html']);
    // The tracked links open where they lead.
    expect(targets).toEqual([tagged('linkedin', 'social'), 'https://partner.example/cfo?utm_source=partner']);
    expect(core).toContain('<dc:title>Spring Webinar</dc:title>');
  });

  it('says so when nothing is approved and there is no landing page, and drops what XML cannot carry', async () => {
    const pack = emptyPack();
    pack.campaign.name = 'Bell\u0007 webinar';
    const { paragraphs } = readDocx(await buildPackDocx(pack));
    expect(paragraphs[0]).toBe('Bell webinar');
    expect(paragraphs).toContain(NO_LANDING_PAGE);
    expect(paragraphs).toContain('Landing page: Not specified');
    expect(paragraphs.slice(paragraphs.indexOf('Approved assets') + 1)).toEqual([NO_APPROVED_ASSET]);
    expect(paragraphs).not.toContain('Sources');
  });
});

describe('the pack’s ZIP', () => {
  it('holds the document, the brief’s workbook, the QR code as PNG and SVG, and links.csv', async () => {
    const pack = testPack();
    const zip = await buildPackZip(pack, noCsv);
    expect(zip.name).toBe('Spring Webinar pack.zip');
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files)).toEqual([
      'Spring Webinar pack.docx',
      'Spring Webinar brief.xlsx',
      QR_PNG,
      QR_SVG,
      LINKS_CSV,
    ]);
    expect(zip.entries).toEqual(Object.keys(files));

    expect(readDocx(files['Spring Webinar pack.docx']!).paragraphs).toContain('LinkedIn post');

    const workbook = unzipSync(files['Spring Webinar brief.xlsx']!);
    const strings = strFromU8(workbook['xl/sharedStrings.xml']!);
    expect(strings).toContain('Cash flow visibility pays for itself.');
    expect(strings).toContain(briefFieldLabels.keyMessages);

    // The PNG scans as the QR target: 200 pt and 20 pt of padding each side, at 300 DPI.
    const png = PNG.sync.read(Buffer.from(files[QR_PNG]!));
    expect(png.width).toBe(((200 + 2 * 20) * 300) / 72);
    const scanned = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(scanned?.data).toBe(pack.qrTarget);
    const svg = strFromU8(files[QR_SVG]!);
    expect(svg).toMatch(
      /^<\?xml[^>]*>\n<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="240pt" height="240pt"/,
    );

    expect(csvText(files[LINKS_CSV]!)).toBe(linksCsv(pack));
  });

  it('leaves the QR code out without a landing page', async () => {
    const files = unzipSync((await buildPackZip(emptyPack(), noCsv)).bytes);
    expect(Object.keys(files)).toEqual(['Spring Webinar pack.docx', 'Spring Webinar brief.xlsx', LINKS_CSV]);
    expect(csvText(files[LINKS_CSV]!)).toBe(`\ufeff${LINKS_CSV_HEADER.join(',')}\r\n`);
  });
});

describe('the pack’s QR code', () => {
  it('is the QR generator’s at its starting size and resolution, with the padding it suggests for a 4-module quiet zone', async () => {
    const target = testPack().qrTarget!;
    const qr = await buildPackQr(target, null);
    const encoded = encodeQr(target);
    if (!qr || !encoded.ok) throw new Error('No QR code');
    expect(qr).toMatchObject({ size: QR_SIZE.initial, dpi: QR_DPI.initial });
    expect(qr.padding).toBe(paddingForQuietZone(encoded.matrix.size, QR_SIZE.initial, QR_DPI.initial));
    const layout = computeQrLayout(encoded.matrix.size, qr.size, qr.padding, qr.dpi);
    expect(layout.quietZoneModules).toBeGreaterThanOrEqual(QUIET_ZONE_MODULES);
    expect(await buildPackQr(`https://gem.example/${'a'.repeat(3_000)}`, null)).toBeNull();
  });

  it('is made with the settings the campaign keeps, and is none when the code does not fit them', async () => {
    const target = testPack().qrTarget!;
    const qr = await buildPackQr(target, { size: 300, padding: 12, dpi: 150 });
    if (!qr) throw new Error('No QR code');
    expect(qr).toMatchObject({ size: 300, padding: 12, dpi: 150 });
    // (300 + 2 × 12) × 150 ÷ 72 = 675 px a side, in the PNG's IHDR.
    const view = new DataView(qr.png.buffer, qr.png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([675, 675]);
    expect(qr.svg).toContain('width="324pt"');
    // 100 pt at 72 DPI is 100 px: too few for the modules of a long link's code.
    const long = `https://gem.example/${'a'.repeat(1_500)}`;
    expect(await buildPackQr(long, { size: 100, padding: 0, dpi: 72 })).toBeNull();
    expect(await buildPackQr(long, { size: 500, padding: 0, dpi: 300 })).not.toBeNull();
  });
});

describe('links.csv', () => {
  it('lists each asset’s links as written and as tagged, then the QR code’s target, quoted where needed', () => {
    const pack = testPack();
    pack.assets[1]!.links = [
      { written: 'https://gem.example/a,"b"', tagged: 'https://gem.example/a,"b"?x=1' },
    ];
    expect(linksCsv(pack).split('\r\n')).toEqual([
      '\ufeffChannel,Version,Link as written,Tracked link',
      `LinkedIn post,2,https://gem.example/webinar,${tagged('linkedin', 'social')}`,
      'LinkedIn post,2,https://partner.example/cfo?utm_source=partner,https://partner.example/cfo?utm_source=partner',
      'E-mail teaser,1,"https://gem.example/a,""b""","https://gem.example/a,""b""?x=1"',
      `${QR_ROW_LABEL},,https://gem.example/webinar,${tagged('qr', 'print')}`,
      '',
    ]);
  });
});
