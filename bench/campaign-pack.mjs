// The campaign pack built in the browser's code: the ZIP (the Word document, the brief's Excel
// workbook, the QR code as PNG and SVG, links.csv) and the Word document alone for a pack of 50
// approved assets, against the brief creator's Word export of the same brief, timed in the same run.
// Run `node bench/campaign-pack.mjs [runs] [assets]` (default 9 runs, 50 assets); no build needed.
// Prints a Markdown table for bench/README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const runs = Number(process.argv[2] ?? 9);
const assetCount = Number(process.argv[3] ?? 50);
const load = loadavg()[0];
const work = mkdtempSync(path.join(tmpdir(), 'gem-pack-bench-'));

// The web app's own builders (TypeScript, its '@/' paths from apps/web/tsconfig.json) and the
// contracts' link tagging, bundled for Node: docx, exceljs, fflate and qrcode as the page loads them.
const bundle = path.join(work, 'pack.mjs');
await build({
  stdin: {
    contents: [
      "export { buildPackDocxFile, buildPackZip } from './pack-files.ts';",
      "export { buildBriefDocx } from '../../../lib/brief-export/brief-docx.ts';",
      "export { campaignSlug, tagLinks } from '@gem/contracts/campaign-links';",
      "export { qrTargetOf, trackedLinks } from '@gem/contracts/campaign-pack';",
      "export { campaignChannelIds, campaignChannels } from '@gem/contracts/campaign-channels';",
      "export { emptyBriefData } from '@gem/contracts/brief-creator';",
    ].join('\n'),
    resolveDir: path.join(root, 'apps/web/src/features/campaigns/pack'),
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  // exceljs is CommonJS and requires Node's built-ins.
  banner: {
    js: "import * as gemBenchModule from 'node:module'; const require = gemBenchModule.createRequire(import.meta.url);",
  },
  outfile: bundle,
  logLevel: 'warning',
});
const gem = await import(pathToFileURL(bundle).href);

/** A full brief, as a campaign's latest version holds it. */
const brief = {
  ...gem.emptyBriefData(),
  campaignName: 'Webinar dla dyrektorów finansowych 2027',
  campaignType: ['Webinar', 'Email'],
  primaryObjective: 'Pozyskać 40 kwalifikowanych leadów wśród CFO średnich firm produkcyjnych.',
  eventObjective: 'Zapełnić salę i transmisję: 300 rejestracji, 150 uczestników na żywo.',
  eventDate: '2027-03-12',
  targetAudience: 'Dyrektorzy finansowi i członkowie zarządów średnich firm produkcyjnych w Polsce.',
  budget: '45 000 PLN',
  timeline: 'Luty–marzec 2027: zapowiedzi, przypomnienia, relacja po wydarzeniu.',
  keyMessages:
    'Widoczność przepływów pieniężnych zwraca się sama. Automatyzacja raportowania to mniej zamknięć w nocy.',
  channels: ['LinkedIn', 'Facebook', 'X', 'Google Ads', 'Meta ads', 'Newsletter', 'Blog'],
  activityKPIs: ['300 rejestracji', '40% open rate newslettera', '2% CTR reklam'],
  businessKPIs: ['40 kwalifikowanych leadów', '8 spotkań handlowych'],
  creativeAssets: 'Baner 1200×628, wideo 30 s, grafiki na LinkedIn.',
  additionalNotes: 'Prelegent: CFO klienta. Zażółć gęślą jaźń.',
  recommendations: ['Zaprosić klienta jako prelegenta', 'Wysłać dwa przypomnienia'],
};
const name = brief.campaignName;
const slug = gem.campaignSlug(name);
const landingUrl = 'https://www.gem.example/wydarzenia/webinar-cfo-2027';

/** An approved asset's text as a model writes one: paragraphs, Markdown, three links (one tagged). */
function assetText(index) {
  const paragraph =
    'Płynność finansowa to dziś przewaga konkurencyjna. Na webinarze pokażemy, jak średnie firmy ' +
    'produkcyjne skracają zamknięcie miesiąca z dziesięciu do czterech dni i odzyskują kontrolę nad gotówką. ';
  return [
    `**Asset ${index + 1}.** ${paragraph.repeat(2)}`,
    `Zarejestruj się: ${landingUrl}. Agenda: [zobacz](${landingUrl}/agenda#dzien-${index % 3}).`,
    `${paragraph}Raport partnera: https://partner.example/raport?utm_source=partner&utm_medium=referral`,
    '- Prelegenci z branży\n- Studium przypadku\n- Sesja pytań i odpowiedzi',
  ].join('\n\n');
}

const channels = gem.campaignChannelIds;
const pack = {
  campaign: {
    id: 'c0000000-0000-4000-8000-000000000001',
    name,
    status: 'active',
    owner: { id: '10000000-0000-4000-8000-000000000001', name: 'Anna Nowak' },
    landingUrl,
    crmCampaignId: '701000000000001AAA',
    utmCampaign: slug,
  },
  brief: { version: 4, data: brief },
  assets: Array.from({ length: assetCount }, (_, index) => {
    const channel = channels[index % channels.length];
    const { label, utm } = gem.campaignChannels[channel];
    const text = assetText(index);
    const tags = { ...utm, campaign: slug };
    return {
      channel,
      label: `${label} ${Math.floor(index / channels.length) + 1}`,
      version: 3,
      text: gem.tagLinks(text, tags),
      savedBy: { id: '10000000-0000-4000-8000-000000000002', name: 'Ola Kowalska' },
      savedAt: '2027-02-10T09:30:00.000Z',
      provenance: {
        briefVersion: 4,
        tool: gem.campaignChannels[channel].tool,
        promptVersion: `${gem.campaignChannels[channel].tool}@1a2b3c4d`,
        model: 'gpt-4o',
        generationId: `gen-${index}`,
      },
      utm: { ...utm, content: null },
      links: gem.trackedLinks(text, tags),
    };
  }),
  qrTarget: gem.qrTargetOf(landingUrl, name),
  qr: null,
  // No saved segment: the CSV files are the CRM's export, read over HTTP (bench/crm-export.md).
  audience: [],
  sources: [],
  madeAt: '2027-02-11T08:00:00.000Z',
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (value) => `${value.toFixed(0)} ms`;
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;

/** Median and range of `runs` timed calls, after one warm-up call (module loading, the JIT). */
async function timed(run) {
  const first = performance.now();
  const result = await run();
  const warmUp = performance.now() - first;
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), warmUp, result };
}

// Interleaved would mix the JIT's state; each is warmed up and run in turn, the reference first.
const reference = await timed(() => gem.buildBriefDocx({ title: name, data: brief }));
const docx = await timed(() => gem.buildPackDocxFile(pack));
const zip = await timed(() => gem.buildPackZip(pack, () => Promise.reject(new Error('no segment'))));

const links = pack.assets.reduce((sum, asset) => sum + asset.links.length, 0);
const rows = [
  [
    'pack',
    `${assetCount} approved assets (${pack.assets[0].text.length} characters each), ${links} tracked links, a QR code`,
  ],
  [
    'reference: the brief creator’s Word export of the brief',
    `${ms(reference.median)} (${ms(reference.min)}–${ms(reference.max)}; first ${ms(reference.warmUp)}), ${kib(reference.result.length)}`,
  ],
  [
    'the pack’s Word document',
    `${ms(docx.median)} (${ms(docx.min)}–${ms(docx.max)}; first ${ms(docx.warmUp)}), ${kib(docx.result.bytes.length)}, ${(docx.median / reference.median).toFixed(1)}× the reference`,
  ],
  [
    'the pack’s ZIP (document, workbook, QR PNG and SVG, links.csv)',
    `${ms(zip.median)} (${ms(zip.min)}–${ms(zip.max)}; first ${ms(zip.warmUp)}), ${kib(zip.result.bytes.length)}, ${(zip.median / reference.median).toFixed(1)}× the reference`,
  ],
  ['target: the ZIP under 2 s', zip.median < 2000 ? 'met' : 'NOT MET'],
];

console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.versions.node}, ` +
    `median of ${runs} runs after one warm-up, load average ${load.toFixed(1)} at the start`,
);
console.log('');
console.log('| measure | value |');
console.log('| --- | --- |');
for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
rmSync(work, { recursive: true, force: true });
if (zip.median >= 2000) process.exitCode = 1;
