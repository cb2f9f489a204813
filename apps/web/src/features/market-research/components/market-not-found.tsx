import { Link } from 'react-router';

import { Container } from '@/components/ui/container';

import styles from './market-feed.module.css';

/** Spec §2 and §8: unknown market or failed feed load. */
export function MarketNotFound() {
  return (
    <Container className={styles.notFound}>
      <div className={styles.notFoundBox} role="alert">
        <img src="/images/not-found.svg" alt="" width={320} height={180} />
        <h1 className={styles.notFoundTitle}>Url you provided is wrong</h1>
        <p>
          <Link to="/login">Back to login</Link>
        </p>
      </div>
    </Container>
  );
}
