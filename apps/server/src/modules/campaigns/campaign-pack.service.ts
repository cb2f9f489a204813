import { briefDataSchema } from '@gem/contracts/brief-creator';
import { campaignAudienceBuilderPaths, reportQueryEntries } from '@gem/contracts/campaign-audience-builder';
import { savedReportSchema } from '@gem/contracts/campaign-audience';
import {
  assetProvenanceSchema,
  assetUtmOf,
  utmTagsOf,
  type AssetProvenance,
} from '@gem/contracts/campaign-assets';
import {
  campaignChannelIds,
  campaignChannels,
  type CampaignChannelId,
} from '@gem/contracts/campaign-channels';
import { campaignSlug, tagLinks } from '@gem/contracts/campaign-links';
import { qrTargetOf, trackedLinks, type CampaignPack, type PackAsset } from '@gem/contracts/campaign-pack';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  campaignAssets,
  campaignAssetVersions,
  campaignBriefVersions,
  campaignSegments,
  campaignSources,
} from '../../db/schema/index';
import { campaignFor } from './campaigns.access';
import { peopleById, qrOf, someone } from './campaigns.records';

/**
 * The campaign pack (issue 29, 'Hand it over'): what a campaign hands over, for anyone who may
 * read it. Every query is bound to the campaign the access check answered, and only approved
 * assets are read: nothing of another campaign, and nothing in draft or in review, reaches it.
 * The browser makes the Word document and the ZIP from it.
 */

const channelOrder = new Map<string, number>(campaignChannelIds.map((id, index) => [id, index]));
const isChannel = (channel: string): channel is CampaignChannelId => channelOrder.has(channel);

export type CampaignPackDeps = {
  db: Db;
  /** Whether the CRM's reports can be read as CSV through GEM (the embedded CRM's can). */
  csvReports: boolean;
  now?: () => Date;
};

export function createCampaignPack({ db, csvReports, now = () => new Date() }: CampaignPackDeps) {
  return {
    async pack(userId: string, campaignId: string): Promise<CampaignPack> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');

      const [brief] = await db
        .select({ data: campaignBriefVersions.briefData })
        .from(campaignBriefVersions)
        .where(
          and(
            eq(campaignBriefVersions.campaignId, campaign.id),
            eq(campaignBriefVersions.version, campaign.briefVersion),
          ),
        );

      // The approved assets with the text they were approved at (an edit makes an asset a draft).
      const assets = await db
        .select({
          id: campaignAssets.id,
          channel: campaignAssets.channel,
          utmSource: campaignAssets.utmSource,
          utmMedium: campaignAssets.utmMedium,
          utmContent: campaignAssets.utmContent,
          version: campaignAssetVersions.version,
          text: campaignAssetVersions.text,
          authorId: campaignAssetVersions.authorId,
          createdAt: campaignAssetVersions.createdAt,
        })
        .from(campaignAssets)
        .innerJoin(
          campaignAssetVersions,
          and(
            eq(campaignAssetVersions.assetId, campaignAssets.id),
            eq(campaignAssetVersions.version, campaignAssets.currentVersion),
          ),
        )
        .where(
          and(
            eq(campaignAssets.campaignId, campaign.id),
            eq(campaignAssets.status, 'approved'),
            gt(campaignAssets.currentVersion, 0),
          ),
        );

      // What each approved text was made from: its newest generation at or before it.
      const made = await db
        .selectDistinctOn([campaignAssetVersions.assetId], {
          assetId: campaignAssetVersions.assetId,
          provenance: campaignAssetVersions.provenance,
        })
        .from(campaignAssetVersions)
        .innerJoin(campaignAssets, eq(campaignAssets.id, campaignAssetVersions.assetId))
        .where(
          and(
            eq(campaignAssets.campaignId, campaign.id),
            eq(campaignAssets.status, 'approved'),
            eq(campaignAssetVersions.kind, 'generated'),
            sql`${campaignAssetVersions.version} <= ${campaignAssets.currentVersion}`,
          ),
        )
        .orderBy(campaignAssetVersions.assetId, desc(campaignAssetVersions.version));
      const provenance = new Map<string, AssetProvenance>();
      for (const row of made) {
        const parsed = assetProvenanceSchema.safeParse(row.provenance);
        if (parsed.success) provenance.set(row.assetId, parsed.data);
      }

      const sources = await db
        .select()
        .from(campaignSources)
        .where(eq(campaignSources.campaignId, campaign.id))
        .orderBy(asc(campaignSources.addedAt), asc(campaignSources.id));

      const segments = await db
        .select()
        .from(campaignSegments)
        .where(eq(campaignSegments.campaignId, campaign.id))
        .orderBy(asc(campaignSegments.savedAt), asc(campaignSegments.id));

      const known = await peopleById(db, [
        campaign.ownerId,
        ...assets.map((asset) => asset.authorId),
        ...sources.map((source) => source.addedBy),
      ]);
      const slug = campaignSlug(campaign.name);

      const packAssets: PackAsset[] = assets
        .filter((asset): asset is typeof asset & { channel: CampaignChannelId } => isChannel(asset.channel))
        .sort((a, b) => channelOrder.get(a.channel)! - channelOrder.get(b.channel)!)
        .map((asset) => {
          const { label } = campaignChannels[asset.channel];
          const { source, medium, content } = assetUtmOf(asset.channel, {
            source: asset.utmSource,
            medium: asset.utmMedium,
            content: asset.utmContent,
          });
          const tags = utmTagsOf({ source, medium, content }, campaign.name);
          return {
            channel: asset.channel,
            label,
            version: asset.version,
            text: tagLinks(asset.text, tags),
            savedBy: someone(asset.authorId, known),
            savedAt: asset.createdAt.toISOString(),
            provenance: provenance.get(asset.id) ?? null,
            utm: { source, medium, content },
            links: trackedLinks(asset.text, tags),
          };
        });

      return {
        campaign: {
          id: campaign.id,
          name: campaign.name,
          status: campaign.status,
          owner: someone(campaign.ownerId, known),
          landingUrl: campaign.landingUrl,
          crmCampaignId: campaign.crmCampaignId,
          utmCampaign: slug,
        },
        brief: { version: campaign.briefVersion, data: briefDataSchema.parse(brief?.data) },
        assets: packAssets,
        qrTarget: qrTargetOf(campaign.landingUrl, campaign.name),
        qr: qrOf(campaign),
        audience: segments.flatMap((segment) => {
          const report = savedReportSchema.safeParse(segment.report);
          if (!report.success) return [];
          const query = new URLSearchParams(reportQueryEntries(report.data)).toString();
          return [
            {
              label: segment.label,
              csvPath: csvReports ? `${campaignAudienceBuilderPaths.reportCsv}?${query}` : null,
              reportUrl: segment.reportUrl,
            },
          ];
        }),
        sources: sources.map((source) => ({
          id: source.id,
          kind: source.kind,
          title: source.title,
          url: source.url,
          summary: source.summary,
          addedBy: someone(source.addedBy, known),
          addedAt: source.addedAt.toISOString(),
        })),
        madeAt: now().toISOString(),
      };
    },
  };
}

export type CampaignPackService = ReturnType<typeof createCampaignPack>;
