import { useState } from 'react';
import { Navigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { Eyebrow } from '@/components/ui/eyebrow';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useAuth } from '@/lib/auth/auth-provider';

import { AuthUnavailable } from './auth-unavailable';
import { FreeToolsList } from './free-tools-list';
import styles from './identity.module.css';
import demo from './sign-in-panel.module.css';

/** The /login screen (spec §2): welcome, the Microsoft sign-in button, the free tools. */
export function SignInPanel() {
  useDocumentTitle('Sign in');
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  if (auth.state.status === 'unavailable') return <AuthUnavailable />;
  if (auth.isAuthenticated) return <Navigate to="/" replace />;
  // While the session is still being checked the screen is shown all the same: it is what the
  // page looks like before its JavaScript runs (prerendered), and what nearly everyone on
  // /login ends up seeing. Someone already signed in moves on to home once that is known.

  async function signIn() {
    setBusy(true);
    setFailed(false);
    try {
      await auth.signIn();
    } catch (error) {
      // Spec §8: a login failure is only logged; the button is there to try again.
      console.warn('Login failed:', error instanceof Error ? error.message : error);
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container>
      <div className={styles.page}>
        <section className={styles.panel} aria-labelledby="sign-in-title">
          <Eyebrow>Welcome to GEM</Eyebrow>
          <p className={styles.intro}>
            Generative and Enhanced Marketing is the marketing team&apos;s workspace: market news every
            morning, and AI-assisted tools for articles, posts, ads and briefs.
          </p>
          <h1 id="sign-in-title" className={styles.title}>
            Sign in with your Microsoft account
          </h1>
          <p className={styles.note}>Use your work account. A sign-in window opens; allow pop-ups for GEM.</p>
          <div className={styles.actions}>
            <Button
              variant="brand"
              onClick={() => void signIn()}
              // The sign-in code loads as the pointer or the focus comes near, not with the page.
              onPointerEnter={() => auth.prepareSignIn()}
              onFocus={() => auth.prepareSignIn()}
              disabled={busy}
              aria-busy={busy}
            >
              {busy ? 'Signing in…' : 'Sign in'}
            </Button>
          </div>
          {failed ? (
            <p className={styles.error} role="alert">
              Sign-in did not complete. Please try again.
            </p>
          ) : null}
        </section>
        <FreeToolsList />
        {auth.config?.embedded ? <DemoAccounts accounts={auth.config.demoAccounts ?? []} /> : null}
      </div>
    </Container>
  );
}

/**
 * The embedded provider's demo accounts and their passwords, while the server has them on (only
 * on a server this machine alone can reach). Known only once the sign-in settings have loaded,
 * after the page is painted, so the list comes last: showing it moves nothing above it.
 */
function DemoAccounts({
  accounts,
}: {
  accounts: readonly { email: string; password: string; label: string }[];
}) {
  if (accounts.length === 0) {
    return <p className={demo.box}>Built-in sign-in service.</p>;
  }
  return (
    <section className={demo.box} aria-labelledby="demo-accounts-title">
      <h2 id="demo-accounts-title" className={demo.title}>
        Demo accounts of the built-in sign-in service
      </h2>
      <ul className={demo.list}>
        {accounts.map((account) => (
          <li key={account.email} className={demo.account}>
            <span className={demo.label}>{account.label}</span>
            <span>
              <code>{account.email}</code>, password <code>{account.password}</code>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
