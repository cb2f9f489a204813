import type { CampaignPack, PackAsset } from '@gem/contracts/campaign-pack';
import { campaignStatusLabels } from '@gem/contracts/campaigns';
import type * as DocxModule from 'docx';

import {
  briefFieldParagraphs,
  MUTED,
  NOT_SPECIFIED,
  packGemDocument,
  titleParagraphs,
  type Docx,
} from '@/lib/brief-export/brief-docx';
import { exportText } from '@/lib/brief-export/brief-values';
import { formatDateTime } from '@/lib/format-date';

import { provenanceParts } from '../assets/asset-labels';

/** What the document says where the pack has nothing. */
export const NO_APPROVED_ASSET = 'No asset is approved yet: approve an asset to hand it over.';
export const NO_LANDING_PAGE = 'No landing page yet: add one to the campaign for its QR code.';
export const NO_LINKS = 'No links in this text.';
export const ALREADY_TAGGED = 'already tagged, left as it is';

type Paragraphs = DocxModule.Paragraph[];

/** 'Label: value' on one line, the label bold; a muted 'Not specified' for an empty value. */
function labelled(docx: Docx, label: string, value: string | null) {
  const { Paragraph, TextRun } = docx;
  const text = value === null ? '' : exportText(value);
  return new Paragraph({
    children: [
      new TextRun({ text: `${label}: `, bold: true }),
      text ? new TextRun(text) : new TextRun({ text: NOT_SPECIFIED, italics: true, color: MUTED }),
    ],
  });
}

const muted = (docx: Docx, text: string) =>
  new docx.Paragraph({ children: [new docx.TextRun({ text: exportText(text), color: MUTED })] });

/** A text as paragraphs: a blank line starts a paragraph, a single line break stays one. */
function textParagraphs(docx: Docx, text: string): Paragraphs {
  const { Paragraph, TextRun } = docx;
  return exportText(text)
    .split(/\n[ \t]*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map(
      (block) =>
        new Paragraph({
          spacing: { after: 120 },
          children: block
            .split('\n')
            .map((line, index) => new TextRun({ text: line, break: index > 0 ? 1 : 0 })),
        }),
    );
}

/** An asset's tracked links: each as the pack hands it over, and as the text had it when that differs. */
function linkParagraphs(docx: Docx, asset: PackAsset): Paragraphs {
  const { ExternalHyperlink, Paragraph, TextRun } = docx;
  const heading = new Paragraph({
    keepNext: true,
    spacing: { before: 120 },
    children: [new TextRun({ text: 'Tracked links', bold: true })],
  });
  if (asset.links.length === 0) return [heading, muted(docx, NO_LINKS)];
  return [
    heading,
    ...asset.links.map(({ written, tagged }) => {
      const link = exportText(tagged);
      return new Paragraph({
        bullet: { level: 0 },
        children: [
          new ExternalHyperlink({ link, children: [new TextRun({ text: link, style: 'Hyperlink' })] }),
          written === tagged
            ? new TextRun({ text: ` (${ALREADY_TAGGED})`, color: MUTED })
            : new TextRun({ text: `As written: ${exportText(written)}`, break: 1, color: MUTED }),
        ],
      });
    }),
  ];
}

/** An approved asset: its channel, its version and who saved it, what it was made from, its text and links. */
function assetParagraphs(docx: Docx, asset: PackAsset): Paragraphs {
  const { HeadingLevel, Paragraph, TextRun } = docx;
  const made = asset.provenance
    ? [
        muted(
          docx,
          `Made from: ${provenanceParts(asset.provenance)
            .map(([label, value]) => `${label} ${value}`)
            .join(
              ' · ',
            )}${asset.provenance.instruction ? ` · Instruction: ${asset.provenance.instruction}` : ''}`,
        ),
        ...(asset.provenance.sources?.length
          ? [
              muted(
                docx,
                `Sources: ${asset.provenance.sources.map((source) => `${source.title} (${source.url})`).join('; ')}`,
              ),
            ]
          : []),
      ]
    : [];
  return [
    new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(exportText(asset.label))] }),
    muted(
      docx,
      `Approved version ${asset.version} · saved by ${asset.savedBy.name} on ${formatDateTime(asset.savedAt)} · utm_source=${asset.utm.source}, utm_medium=${asset.utm.medium}${asset.utm.content ? `, utm_content=${asset.utm.content}` : ''}`,
    ),
    ...made,
    ...textParagraphs(docx, asset.text),
    ...linkParagraphs(docx, asset),
  ];
}

/**
 * The campaign pack as a Word document in GEM's look (the brief's export): the campaign's name
 * over the orange rule; the campaign (owner, status, landing page, CRM campaign, utm_campaign,
 * the QR code's target); the brief's latest version, field by field; every approved asset by
 * channel with what it was made from, its text (links tagged) and its tracked links; the sources.
 */
export async function buildPackDocx(pack: CampaignPack): Promise<Uint8Array> {
  const docx = await import('docx');
  const { HeadingLevel, Paragraph, TextRun } = docx;
  const h1 = (text: string) =>
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(text)] });
  const { campaign } = pack;
  const title = exportText(campaign.name) || 'Campaign';

  const children: DocxModule.FileChild[] = [
    ...titleParagraphs(docx, title, `Campaign pack  ·  Made ${formatDateTime(pack.madeAt)}`),
    h1('Campaign'),
    labelled(docx, 'Owner', campaign.owner.name),
    labelled(docx, 'Status', campaignStatusLabels[campaign.status]),
    labelled(docx, 'Landing page', campaign.landingUrl),
    labelled(docx, 'CRM campaign', campaign.crmCampaignId),
    labelled(docx, 'utm_campaign', campaign.utmCampaign),
    pack.qrTarget ? labelled(docx, 'QR code', pack.qrTarget) : muted(docx, NO_LANDING_PAGE),
    h1(`Brief (version ${pack.brief.version})`),
    ...briefFieldParagraphs(docx, pack.brief.data, 'HEADING_2'),
    h1('Approved assets'),
    ...(pack.assets.length === 0
      ? [muted(docx, NO_APPROVED_ASSET)]
      : pack.assets.flatMap((asset) => assetParagraphs(docx, asset))),
    ...(pack.sources.length > 0
      ? [
          h1('Sources'),
          ...pack.sources.map(
            (source) =>
              new Paragraph({
                bullet: { level: 0 },
                children: [
                  new TextRun({ text: exportText(source.title), bold: true }),
                  new TextRun({ text: exportText(source.url), break: 1 }),
                ],
              }),
          ),
        ]
      : []),
  ];
  return packGemDocument(docx, { title, subject: 'Campaign pack', children });
}
