import { useQueryClient } from '@tanstack/react-query';

import { Button } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { authConfigQueryOptions } from '@/lib/auth/auth-provider';

import styles from './identity.module.css';

/** GEM could not load its sign-in settings (server down, network gone). */
export function AuthUnavailable() {
  useDocumentTitle('Sign-in unavailable');
  const queryClient = useQueryClient();
  return (
    <Container>
      <div className={styles.page}>
        <section className={styles.panel} aria-labelledby="auth-unavailable-title">
          <h1 id="auth-unavailable-title" className={styles.title}>
            Sign-in is unavailable right now
          </h1>
          <p className={styles.lead}>
            GEM could not reach its sign-in service. Check your connection; if it persists, the service may be
            restarting.
          </p>
          <div className={styles.actions}>
            <Button
              onClick={() => void queryClient.refetchQueries({ queryKey: authConfigQueryOptions.queryKey })}
            >
              Try again
            </Button>
          </div>
        </section>
      </div>
    </Container>
  );
}
