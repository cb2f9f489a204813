import type { ReactNode } from 'react';
import { NavLink } from 'react-router';

import { Container } from '@/components/ui/container';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeading } from '@/components/ui/page-heading';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './admin-page.module.css';

/** The admin area's parts, each a page of its own under /admin. */
export const adminSections = [
  { id: 'access', label: 'Access', path: '/admin/access' },
  { id: 'usage', label: 'Usage', path: '/admin/usage' },
  { id: 'allowances', label: 'Allowances', path: '/admin/allowances' },
  { id: 'audit', label: 'Audit log', path: '/admin/audit' },
  { id: 'integrations', label: 'Integrations', path: '/admin/integrations' },
  { id: 'brand-voice', label: 'Brand voice', path: '/admin/brand-voice' },
] as const;
export type AdminSectionId = (typeof adminSections)[number]['id'];

/**
 * The frame of every admin page: the heading, the admin area's own navigation and the part.
 * Someone who is not an administrator sees a plain refusal (the server refuses every admin call
 * on its own, whatever this page shows).
 */
export function AdminPage({
  section,
  description,
  isAdmin,
  children,
}: {
  section: AdminSectionId;
  description: ReactNode;
  /** From the access check (the route asks it): an administrator sees the part. */
  isAdmin: boolean;
  children: ReactNode;
}) {
  const current = adminSections.find((s) => s.id === section)!;
  useDocumentTitle(`${current.label} · Administration`);
  return (
    <Container>
      <div className={styles.page}>
        <PageHeading eyebrow="Administration" title={current.label} description={description} />
        <nav aria-label="Administration" className={styles.sections}>
          {adminSections.map((s) => (
            <NavLink key={s.id} to={s.path} className={styles.section}>
              {s.label}
            </NavLink>
          ))}
        </nav>
        {isAdmin ? (
          children
        ) : (
          <EmptyState role="alert">
            This page is for GEM’s administrators. Ask one of them if you need something changed here.
          </EmptyState>
        )}
      </div>
    </Container>
  );
}
