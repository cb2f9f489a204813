import type { CampaignAction, CampaignRole, CampaignSharing, CampaignStatus } from '@gem/contracts/campaigns';

/** How a campaign's page and card name the user's role in it. */
export const roleLabels: Record<CampaignRole, string> = {
  owner: 'Owner',
  editor: 'Editor',
  reader: 'Reader · read only',
};

export const sharingLabels: Record<CampaignSharing, string> = {
  private: 'Private',
  team: 'Shared with the team',
};

/** A status's badge: an active campaign in the brand's tint, a completed one in green. */
export const statusTones: Record<CampaignStatus, 'neutral' | 'brand' | 'success'> = {
  planning: 'neutral',
  active: 'brand',
  completed: 'success',
  archived: 'neutral',
};

const actionLabels: Record<CampaignAction, string> = {
  created: 'Created',
  'brief-saved': 'Brief saved',
  renamed: 'Renamed',
  'status-changed': 'Status changed',
  'sharing-changed': 'Sharing changed',
  'editor-added': 'Editor added',
  'editor-removed': 'Editor removed',
  'crm-campaign-set': 'CRM campaign set',
  'landing-page-set': 'Landing page set',
  'qr-code-set': 'QR code settings changed',
  duplicated: 'Duplicated',
  'asset-generated': 'Asset generated',
  'asset-saved': 'Asset edited',
  'asset-conflict': 'Asset save kept beside a newer one',
  'asset-status-changed': 'Asset status changed',
  'asset-restored': 'Asset version restored',
  'asset-utm-set': 'Asset UTM tags changed',
  'source-added': 'Source added',
  'source-removed': 'Source removed',
  'segment-saved': 'Segment saved',
  'segment-removed': 'Segment removed',
  'members-added': 'Contacts added to the CRM campaign',
};

/** An action of the activity in words; one added later reads as its name until it has its own. */
export function actionLabel(action: string): string {
  const known = actionLabels[action as CampaignAction];
  if (known) return known;
  const words = action.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the user may change the campaign (its brief, name, status, links), and share it. */
export const canEdit = (role: CampaignRole) => role === 'owner' || role === 'editor';
export const canShare = (role: CampaignRole) => role === 'owner';
