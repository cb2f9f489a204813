import { briefFieldLabels, briefFields, type BriefData } from '@gem/contracts/brief-creator';
import type * as DocxModule from 'docx';

import { formatDateTime } from '@/lib/format-date';

import {
  exportItems,
  exportTitle,
  exportValue,
  formatEventDate,
  type ExportableBrief,
  type ExportValue,
} from './brief-values';

/** GEM's brand orange, for the headings and the rule under the title. */
export const BRAND = 'FD5108';
const TEXT = '2D2D2D';
/** Secondary text: a subtitle, 'Not specified'. */
export const MUTED = '6B6B6B';
/** Arial: on every Windows and Mac, and in Word Online, so the brief looks the same everywhere. */
const FONT = 'Arial';
/** What an empty field says. */
export const NOT_SPECIFIED = 'Not specified';

/** Font sizes in half-points, spacing and margins in twentieths of a point. */
const BODY_SIZE = 21;
const PAGE_MARGIN = 1134; // 2 cm

export type Docx = typeof DocxModule;

/** The subtitle: the campaign types and the date the brief was finished, when known. */
function subtitleOf(brief: ExportableBrief): string {
  const parts: string[] = [];
  const types = exportItems(brief.data.campaignType);
  if (types.length > 0) parts.push(types.join(', '));
  if (brief.createdAt && !Number.isNaN(new Date(brief.createdAt).getTime())) {
    parts.push(`Created ${formatDateTime(brief.createdAt)}`);
  }
  return parts.join('  ·  ');
}

/** A field's value as paragraphs: lines of text, bullets for a list, 'Not specified' when empty. */
export function valueParagraphs(docx: Docx, value: ExportValue) {
  const { Paragraph, TextRun } = docx;
  switch (value.kind) {
    case 'list':
      return value.items.map(
        (item) => new Paragraph({ bullet: { level: 0 }, children: [new TextRun(item)] }),
      );
    case 'date':
      return [new Paragraph({ children: [new TextRun(formatEventDate(value.date))] })];
    case 'text':
      return [
        new Paragraph({
          children: value.text
            .split('\n')
            .map((line, index) => new TextRun({ text: line, break: index > 0 ? 1 : 0 })),
        }),
      ];
    case 'empty':
      return [
        new Paragraph({ children: [new TextRun({ text: NOT_SPECIFIED, italics: true, color: MUTED })] }),
      ];
  }
}

/** The title over an orange rule, and the muted subtitle under it when there is one. */
export function titleParagraphs(docx: Docx, title: string, subtitle: string) {
  const { BorderStyle, HeadingLevel, Paragraph, TextRun } = docx;
  return [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      border: { bottom: { style: BorderStyle.SINGLE, size: 12, color: BRAND, space: 6 } },
      children: [new TextRun(title)],
    }),
    ...(subtitle
      ? [
          new Paragraph({
            spacing: { after: 240 },
            children: [new TextRun({ text: subtitle, color: MUTED })],
          }),
        ]
      : []),
  ];
}

/** Every field of the brief in the spec's order: its label as a heading of `level`, then its value. */
export function briefFieldParagraphs(docx: Docx, data: BriefData, level: 'HEADING_1' | 'HEADING_2') {
  const { HeadingLevel, Paragraph, TextRun } = docx;
  return briefFields.flatMap((field) => [
    new Paragraph({ heading: HeadingLevel[level], children: [new TextRun(briefFieldLabels[field])] }),
    ...valueParagraphs(docx, exportValue(data, field)),
  ]);
}

/**
 * A document in GEM's look, packed to bytes: A4, Arial, the title's style, orange Heading 1 and
 * a darker Heading 2; the document's properties carry the title.
 */
export async function packGemDocument(
  docx: Docx,
  { title, subject, children }: { title: string; subject: string; children: DocxModule.FileChild[] },
): Promise<Uint8Array> {
  const { AlignmentType, Document, Packer } = docx;
  const document = new Document({
    title,
    subject,
    creator: 'GEM',
    styles: {
      default: {
        document: {
          run: { font: FONT, size: BODY_SIZE, color: TEXT },
          paragraph: { spacing: { after: 60, line: 264 } },
        },
        title: {
          run: { font: FONT, size: 40, bold: true, color: TEXT },
          paragraph: { spacing: { after: 120 }, alignment: AlignmentType.LEFT },
        },
        heading1: {
          run: { font: FONT, size: 22, bold: true, color: BRAND },
          paragraph: { spacing: { before: 200, after: 40 }, keepNext: true, keepLines: true },
        },
        heading2: {
          run: { font: FONT, size: BODY_SIZE, bold: true, color: TEXT },
          paragraph: { spacing: { before: 160, after: 40 }, keepNext: true, keepLines: true },
        },
        listParagraph: { run: { font: FONT, size: BODY_SIZE, color: TEXT } },
      },
    },
    sections: [
      {
        properties: {
          page: {
            size: { width: 11906, height: 16838 }, // A4
            margin: { top: PAGE_MARGIN, bottom: PAGE_MARGIN, left: PAGE_MARGIN, right: PAGE_MARGIN },
          },
        },
        children,
      },
    ],
  });
  return Packer.pack(document, 'uint8array');
}

/**
 * The brief as a Word document a marketer can send: the campaign name as the title over an
 * orange rule, a subtitle with the campaign type and the date it was finished, then every field
 * in the spec's order under an orange heading (lists as bullets, an empty field 'Not specified').
 * A4, Arial; the document's properties carry the title.
 */
export async function buildBriefDocx(brief: ExportableBrief): Promise<Uint8Array> {
  const docx = await import('docx');
  const title = exportTitle(brief);
  return packGemDocument(docx, {
    title,
    subject: 'Marketing brief',
    children: [
      ...titleParagraphs(docx, title, subtitleOf(brief)),
      ...briefFieldParagraphs(docx, brief.data, 'HEADING_1'),
    ],
  });
}
