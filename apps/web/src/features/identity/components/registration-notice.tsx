import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

import { ButtonLink } from '@/components/ui/button';
import { Container } from '@/components/ui/container';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './identity.module.css';

// Spec §4/§9: the registration screen moves on to /login after 5 s.
export const REGISTRATION_REDIRECT_MS = 5000;

export function RegistrationNotice() {
  useDocumentTitle('Registration');
  const navigate = useNavigate();
  const [secondsLeft, setSecondsLeft] = useState(REGISTRATION_REDIRECT_MS / 1000);

  useEffect(() => {
    const redirect = window.setTimeout(() => navigate('/login', { replace: true }), REGISTRATION_REDIRECT_MS);
    const tick = window.setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), 1000);
    return () => {
      window.clearTimeout(redirect);
      window.clearInterval(tick);
    };
  }, [navigate]);

  return (
    <Container>
      <div className={styles.page}>
        <section className={styles.panel} aria-labelledby="register-title">
          <h1 id="register-title" className={styles.title}>
            Registration has moved
          </h1>
          <p className={styles.lead}>
            Registration is now handled through the company&apos;s identity provider. Sign in with your work
            account; there is no separate GEM account to create.
          </p>
          <p className={styles.note} aria-live="polite">
            Taking you to the sign-in page in {secondsLeft} s.
          </p>
          <div className={styles.actions}>
            <ButtonLink to="/login" variant="brand">
              Go to Login
            </ButtonLink>
          </div>
        </section>
      </div>
    </Container>
  );
}
