import { z } from 'zod';

import { briefDataSchema } from './brief-creator-data';
import { assetProvenanceSchema } from './campaign-assets';
import { campaignChannelIds } from './campaign-channels';
import { campaignSlug, findLinks, withUtm, type UtmTags } from './campaign-links';
import { campaignSourceSchema } from './campaign-sources';
import { qrSettingsSchema } from './qr-settings';
import { campaignPath, campaignPersonSchema, campaignStatuses } from './campaigns';

/**
 * The campaign pack (issue 29, 'Hand it over'): everything a campaign hands over in one answer,
 * which the browser makes into a Word document and a ZIP. Only what its reader may see: the
 * campaign, its brief as it stands, its approved assets (nothing in draft or in review) with
 * every link carrying its UTM tags, those links listed, the QR code's target and settings, the
 * sources, and where each saved segment's contacts are read as CSV.
 */

export const campaignPackPaths = {
  /** GET the pack of a campaign the user may read (404 to anyone else). */
  pack: '/api/campaigns/:campaignId/pack',
} as const;

export const campaignPackPath = (campaignId: string) => `${campaignPath(campaignId)}/pack`;

/** A QR code is printed: its visits say so. */
export const QR_UTM = { source: 'qr', medium: 'print' } as const;

/**
 * Where the campaign's QR code leads: its landing page with utm_source=qr, utm_medium=print and
 * the campaign's slug (a landing page tagged already is left as it is); null without one.
 */
export const qrTargetOf = (landingUrl: string | null, campaignName: string): string | null =>
  landingUrl ? withUtm(landingUrl, { ...QR_UTM, campaign: campaignSlug(campaignName) }) : null;

/** A link of an asset: as its text has it, and as the pack hands it over (tagged, unless it was). */
export const trackedLinkSchema = z.object({
  written: z.string(),
  tagged: z.string(),
});
export type TrackedLink = z.infer<typeof trackedLinkSchema>;

/** Each distinct http(s) link of a text once, in order, as written and as tagged with `tags`. */
export function trackedLinks(text: string, tags: UtmTags): TrackedLink[] {
  const seen = new Set<string>();
  const links: TrackedLink[] = [];
  for (const { url } of findLinks(text)) {
    if (seen.has(url)) continue;
    seen.add(url);
    links.push({ written: url, tagged: withUtm(url, tags) });
  }
  return links;
}

export const packAssetSchema = z.object({
  channel: z.enum(campaignChannelIds),
  /** The channel as people call it ('LinkedIn post'). */
  label: z.string(),
  /** The approved version. */
  version: z.number().int().positive(),
  /** Its text, every http(s) link in it tagged with the asset's UTM tags. */
  text: z.string(),
  /** Who saved (or generated) the approved version, and when. */
  savedBy: campaignPersonSchema,
  savedAt: z.iso.datetime({ offset: true }),
  /** What the text was made from (null for a text never generated). */
  provenance: assetProvenanceSchema.nullable(),
  /** Its UTM tags (the channel's own unless edited on the asset). */
  utm: z.object({ source: z.string(), medium: z.string(), content: z.string().nullable() }),
  /** The tracked links: each distinct link of the text once, in order. */
  links: z.array(trackedLinkSchema),
});
export type PackAsset = z.infer<typeof packAssetSchema>;

export const campaignPackSchema = z.object({
  campaign: z.object({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(campaignStatuses),
    owner: campaignPersonSchema,
    landingUrl: z.string().nullable(),
    crmCampaignId: z.string().nullable(),
    /** utm_campaign on every tracked link (campaignSlug of the name). */
    utmCampaign: z.string(),
  }),
  /** The brief as it stands: its latest version. */
  brief: z.object({ version: z.number().int().positive(), data: briefDataSchema }),
  /** Every approved asset, in the channels' order. */
  assets: z.array(packAssetSchema),
  /** qrTargetOf the landing page; null without one. */
  qrTarget: z.string().nullable(),
  /** The QR code's settings as the campaign keeps them; null: the defaults. */
  qr: qrSettingsSchema.nullable(),
  /**
   * The audience: each segment saved to the campaign, with where its contacts are read as CSV
   * (the audience builder's export); `csvPath` is null when the CRM keeps its reports itself
   * (Salesforce), and the segment's report link is given instead.
   */
  audience: z.array(
    z.object({ label: z.string(), csvPath: z.string().nullable(), reportUrl: z.string().nullable() }),
  ),
  /** What the content may draw on besides the brief, oldest first. */
  sources: z.array(campaignSourceSchema),
  madeAt: z.iso.datetime({ offset: true }),
});
export type CampaignPack = z.infer<typeof campaignPackSchema>;
