import { Navigate, useLocation } from 'react-router';

import { AccessSection } from '@/features/admin/access/access-section';
import { AllowancesSection } from '@/features/admin/allowances/allowances-section';
import { AuditSection } from '@/features/admin/audit/audit-section';
import { AdminPage } from '@/features/admin/components/admin-page';
import { IntegrationsSection } from '@/features/admin/integrations/integrations-section';
import { UsageSection } from '@/features/admin/usage/usage-section';

/** The admin area (issue 30): /admin opens its access list; each part is a page of its own. */
export function AdminRoute() {
  const { pathname } = useLocation();
  const part = pathname.replace(/\/+$/, '').split('/')[2];
  switch (part) {
    case 'access':
      return (
        <AdminPage section="access" description="Who may use GEM, how they get in, and who asks to.">
          <AccessSection />
        </AdminPage>
      );
    case 'usage':
      return (
        <AdminPage
          section="usage"
          description="Generations, tokens, estimated cost, failures and latency, per person, tool and period."
        >
          <UsageSection />
        </AdminPage>
      );
    case 'allowances':
      return (
        <AdminPage section="allowances" description="How many AI tokens each person may use a month.">
          <AllowancesSection />
        </AdminPage>
      );
    case 'audit':
      return (
        <AdminPage section="audit" description="Sign-ins, access changes and every administrator’s action.">
          <AuditSection />
        </AdminPage>
      );
    case 'integrations':
      return (
        <AdminPage section="integrations" description="Whether the services GEM depends on are healthy.">
          <IntegrationsSection />
        </AdminPage>
      );
    default:
      return <Navigate to="/admin/access" replace />;
  }
}
