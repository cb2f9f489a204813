import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { AccessSection } from '@/features/admin/access/access-section';
import { AllowancesSection } from '@/features/admin/allowances/allowances-section';
import { AuditSection } from '@/features/admin/audit/audit-section';
import { BrandVoiceSection } from '@/features/admin/brand-voice/brand-voice-section';
import { AdminPage, type AdminSectionId } from '@/features/admin/components/admin-page';
import { IntegrationsSection } from '@/features/admin/integrations/integrations-section';
import { UsageSection } from '@/features/admin/usage/usage-section';
import { useIsAdmin } from '@/features/identity/api/check-app-access';

/** Each part of the admin area: its lead line and its content. */
const parts: Record<AdminSectionId, { description: string; content: ReactNode }> = {
  access: { description: 'Who may use GEM, how they get in, and who asks to.', content: <AccessSection /> },
  usage: {
    description: 'Generations, tokens, estimated cost, failures and latency, per person, tool and period.',
    content: <UsageSection />,
  },
  allowances: {
    description: 'How many AI tokens each person may use a month.',
    content: <AllowancesSection />,
  },
  audit: {
    description: 'Sign-ins, access changes and every administrator’s action.',
    content: <AuditSection />,
  },
  integrations: {
    description: 'Whether the services GEM depends on are healthy.',
    content: <IntegrationsSection />,
  },
  'brand-voice': {
    description:
      'The firm’s voice and terms: every generator writes with them, and the style check reads texts against them.',
    content: <BrandVoiceSection />,
  },
};

const isPart = (part: string | undefined): part is AdminSectionId => part !== undefined && part in parts;

/** The admin area (issue 30): /admin opens its access list; each part is a page of its own. */
export function AdminRoute() {
  const { pathname } = useLocation();
  // Whether to show the part or a refusal; the server refuses every admin call on its own.
  const isAdmin = useIsAdmin();
  const part = pathname.split('/').filter(Boolean)[1];
  if (!isPart(part)) return <Navigate to="/admin/access" replace />;
  return (
    <AdminPage section={part} description={parts[part].description} isAdmin={isAdmin}>
      {parts[part].content}
    </AdminPage>
  );
}
