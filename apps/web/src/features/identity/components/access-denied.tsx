import { Container } from '@/components/ui/container';
import { Eyebrow } from '@/components/ui/eyebrow';
import { useDocumentTitle } from '@/hooks/use-document-title';

import { FreeToolsList } from './free-tools-list';
import styles from './identity.module.css';

/** Replaces the page for a signed-in user who may not use GEM (spec §2 "Access Denied"). */
export function AccessDenied({ contacts }: { contacts: readonly string[] }) {
  useDocumentTitle('Access denied');
  return (
    <Container>
      <div className={styles.page}>
        <section className={styles.panel} aria-labelledby="access-denied-title">
          <Eyebrow>Access Denied</Eyebrow>
          <h1 id="access-denied-title" className={styles.title}>
            You cannot use GEM yet
          </h1>
          <p className={styles.lead}>
            Access Denied: You are not permitted to use this application. For permissions please contact:{' '}
            {contacts.map((email, index) => (
              <span key={email}>
                <a href={`mailto:${email}`}>{email}</a>
                {index < contacts.length - 1 ? ', ' : ''}
              </span>
            ))}
          </p>
        </section>
        <FreeToolsList />
      </div>
    </Container>
  );
}
