import { CampaignsPage } from '@/features/campaigns/components/campaigns-page';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Every campaign the user may see (issue 29). */
export function CampaignsRoute() {
  useDocumentTitle('Campaigns');
  return <CampaignsPage />;
}
