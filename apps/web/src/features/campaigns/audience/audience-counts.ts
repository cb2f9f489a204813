import { formatInteger } from '@/lib/format-number';

/** "1 contact", "1,234 contacts". */
export const contactsOf = (count: number) =>
  `${formatInteger(count)} ${count === 1 ? 'contact' : 'contacts'}`;

/** "123 contacts: 100 new, 23 already members of Spring Webinar". */
export function previewText(preview: {
  total: number;
  newMembers: number;
  alreadyMembers: number;
  crmCampaign: { name: string };
}): string {
  return `${contactsOf(preview.total)}: ${formatInteger(preview.newMembers)} new, ${formatInteger(
    preview.alreadyMembers,
  )} already ${preview.alreadyMembers === 1 ? 'a member' : 'members'} of ${preview.crmCampaign.name}`;
}
