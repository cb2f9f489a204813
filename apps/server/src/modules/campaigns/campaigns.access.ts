import type { CampaignRole } from '@gem/contracts/campaigns';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaignEditors, campaigns } from '../../db/schema/index';
import { AppError } from '../../lib/app-error';

/**
 * Who may do what with a campaign, decided on the server for every route: its owner everything;
 * an editor the owner added its content and brief; anyone else only when the owner shared it with
 * the team, and then only to read. To anyone else it does not exist (404, never 403, so an id
 * says nothing about a campaign one may not see).
 */

export const CAMPAIGN_NOT_FOUND = 'Campaign not found.';
export const READ_ONLY =
  'You can read this campaign but not change it. Ask its owner to add you as an editor.';
export const OWNER_ONLY = 'Only the campaign’s owner can do this.';

const uuidPattern = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
/** Whether an id can be a row's id (anything else is not found without a query). */
export const isUuid = (id: string) => uuidPattern.test(id);

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignAccess = { campaign: CampaignRow; role: CampaignRole };

/** What a role may do. */
const allowed = {
  read: ['owner', 'editor', 'reader'],
  edit: ['owner', 'editor'],
  own: ['owner'],
} as const satisfies Record<string, readonly CampaignRole[]>;
export type CampaignPermission = keyof typeof allowed;

/** The campaign and the user's role in it; 404 when they may not see it, 403 when they may see but not do it. */
export async function campaignFor(
  db: Db,
  userId: string,
  campaignId: string,
  permission: CampaignPermission,
): Promise<CampaignAccess> {
  if (!isUuid(campaignId)) throw new AppError(404, 'not_found', CAMPAIGN_NOT_FOUND);
  const [found] = await db
    .select({ campaign: campaigns, editor: campaignEditors.userId })
    .from(campaigns)
    .leftJoin(
      campaignEditors,
      and(eq(campaignEditors.campaignId, campaigns.id), eq(campaignEditors.userId, userId)),
    )
    .where(eq(campaigns.id, campaignId));
  const role = found ? roleOf(found.campaign, userId, found.editor !== null) : null;
  if (!found || !role) throw new AppError(404, 'not_found', CAMPAIGN_NOT_FOUND);
  if (!(allowed[permission] as readonly CampaignRole[]).includes(role)) {
    throw new AppError(403, 'forbidden', permission === 'own' ? OWNER_ONLY : READ_ONLY);
  }
  return { campaign: found.campaign, role };
}

/** The user's role in a campaign, or null when they may not see it. */
export function roleOf(campaign: CampaignRow, userId: string, isEditor: boolean): CampaignRole | null {
  if (campaign.ownerId === userId) return 'owner';
  if (isEditor) return 'editor';
  if (campaign.sharing === 'team') return 'reader';
  return null;
}
