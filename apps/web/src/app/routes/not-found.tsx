import { cutAtGrapheme } from '@gem/contracts/text-rules';
import { useLocation } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { ButtonLink } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { HomeIcon } from '@/components/ui/icons';
import { StatusPanel } from '@/components/ui/status-panel';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './status-page.module.css';

// Long enough to recognise a typo, short enough that a crafted URL cannot fill the page.
const maxShownPathLength = 80;

function shownPath(pathname: string): string {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    path = pathname;
  }
  return path.length > maxShownPathLength ? `${cutAtGrapheme(path, maxShownPathLength)}…` : path;
}

/** The catch-all route. React renders the path as text, never as markup. */
export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  const { pathname } = useLocation();

  return (
    <Container>
      <StatusPanel
        kicker={<Badge tone="brand">Error 404</Badge>}
        title="Page not found"
        imageSrc="/images/not-found.svg"
        imageAlt=""
        actions={
          <>
            <ButtonLink to="/">
              <HomeIcon />
              Go to home
            </ButtonLink>
            <ButtonLink to="/tools" variant="secondary">
              See all tools
            </ButtonLink>
          </>
        }
      >
        <p>
          There is no page at <code className={styles.path}>{shownPath(pathname)}</code>. It may have moved,
          or the link may have a typo.
        </p>
      </StatusPanel>
    </Container>
  );
}
