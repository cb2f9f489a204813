import type { CampaignAction, CampaignPerson } from '@gem/contracts/campaigns';
import { qrSettingsSchema, type QrSettings } from '@gem/contracts/qr-settings';
import { inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { campaignActivity, users } from '../../db/schema/index';

/** What the campaign's parts share: people as they are shown, the activity record, its QR settings. */

export const personName = (row: { displayName: string | null; email: string | null } | null | undefined) =>
  row?.displayName?.trim() || row?.email?.trim() || 'A GEM user';

/** The people with these ids, as a campaign shows them. */
export async function peopleById(db: Db, ids: (string | null)[]): Promise<Map<string, CampaignPerson>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, displayName: users.displayName, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, { id: row.id, name: personName(row) }]));
}

/** The person with this id, or a former user when they are gone. */
export const someone = (id: string | null, known: Map<string, CampaignPerson>): CampaignPerson =>
  (id && known.get(id)) || { id: id ?? '00000000-0000-0000-0000-000000000000', name: 'A former GEM user' };

/** Records a change in the campaign's activity, in the change's own transaction. */
export async function recordActivity(
  tx: Tx,
  campaignId: string,
  actorId: string,
  action: CampaignAction,
  detail = '',
) {
  await tx.insert(campaignActivity).values({ campaignId, actorId, action, detail });
}

/** The campaign's QR settings as stored (null: the defaults; anything unreadable is the defaults too). */
export function qrOf(campaign: { qrSettings: unknown }): QrSettings | null {
  const parsed = qrSettingsSchema.safeParse(campaign.qrSettings);
  return parsed.success ? parsed.data : null;
}

export const sameQr = (a: QrSettings | null, b: QrSettings | null) =>
  a === b || (a !== null && b !== null && a.size === b.size && a.padding === b.padding && a.dpi === b.dpi);
