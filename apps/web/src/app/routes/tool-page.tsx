import type { ReactNode } from 'react';

import { Breadcrumbs } from '@/components/ui/breadcrumbs';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './tool-page.module.css';

/** The frame of a tool's page: the window's title, breadcrumbs, the heading, then the tool. */
export function ToolPage({
  title,
  description,
  eyebrow = 'Tools',
  children,
}: {
  title: string;
  description: string;
  eyebrow?: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Container className={styles.page}>
      <Breadcrumbs trail={[{ label: 'Tools', to: '/tools' }, { label: title }]} />
      <PageHeading eyebrow={eyebrow} title={title} description={description} />
      {children}
    </Container>
  );
}
