import type { ReactNode } from 'react';

import { Footer } from './footer';
import { Header } from './header';
import styles from './main-layout.module.css';
import { visibleNavItems } from './nav-items';
import { SkipLink } from './skip-link';

const mainId = 'main-content';

type MainLayoutProps = {
  /** Shows Logout when true (spec §2: Logout shows only when logged in). */
  isAuthenticated: boolean;
  /** Shows Admin when true (GEM's administrators). */
  isAdmin?: boolean;
  children: ReactNode;
};

/** Header with the navigation bar, the page, and the footer: the frame of every page. */
export function MainLayout({ isAuthenticated, isAdmin = false, children }: MainLayoutProps) {
  return (
    <div className={styles.shell}>
      <SkipLink targetId={mainId} />
      <Header isAuthenticated={isAuthenticated} isAdmin={isAdmin} />
      <main id={mainId} className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <Footer items={visibleNavItems(isAuthenticated, isAdmin)} />
    </div>
  );
}
