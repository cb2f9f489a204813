import { isRouteErrorResponse, useRouteError } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { HomeIcon, RefreshIcon } from '@/components/ui/icons';
import { StatusPanel } from '@/components/ui/status-panel';
import { env } from '@/config/env';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './status-page.module.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** Shown in place of a page that crashed while rendering; the layout around it stays. */
export function RouteErrorContent() {
  useDocumentTitle('Something went wrong');
  const error = useRouteError();

  return (
    <Container>
      <StatusPanel
        kicker={<Badge tone="brand">Unexpected error</Badge>}
        title="Something went wrong"
        imageSrc="/images/error.svg"
        imageAlt=""
        actions={
          <>
            <Button onClick={() => window.location.reload()}>
              <RefreshIcon />
              Reload the page
            </Button>
            <ButtonLink to="/" variant="secondary" reloadDocument>
              <HomeIcon />
              Go to home
            </ButtonLink>
          </>
        }
      >
        <p>
          This page hit a problem and could not be shown. Reloading usually fixes it; if it keeps happening,
          let the GEM team know what you were doing.
        </p>
        {/* Details help developers; users never see internals in production. */}
        {env.isDevelopment ? (
          <details className={styles.details}>
            <summary>Technical details</summary>
            <pre>{describe(error)}</pre>
          </details>
        ) : null}
      </StatusPanel>
    </Container>
  );
}

/**
 * The last line of defence when the layout itself failed: a self-contained page with only
 * the brand, so it cannot crash for the same reason.
 */
export function RootErrorRoute() {
  return (
    <div className={styles.standalone}>
      <div className={styles.standaloneBar}>
        <Container>
          <img src="/gem-mark.svg" alt="GEM" width={36} height={36} />
        </Container>
      </div>
      <main>
        <RouteErrorContent />
      </main>
    </div>
  );
}
