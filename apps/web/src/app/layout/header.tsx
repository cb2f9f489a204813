import { Container } from '@/components/ui/container';

import { Brand } from './brand';
import { DesktopNav } from './desktop-nav';
import styles from './header.module.css';
import { MobileMenu } from './mobile-menu';
import { visibleNavItems } from './nav-items';

/** The navigation bar: brand plus the desktop links, or the mobile menu button below 768 px. */
export function Header({
  isAuthenticated,
  isAdmin = false,
}: {
  isAuthenticated: boolean;
  isAdmin?: boolean;
}) {
  const items = visibleNavItems(isAuthenticated, isAdmin);
  return (
    <header className={styles.header}>
      <Container className={styles.bar}>
        <Brand />
        <DesktopNav items={items} />
        <MobileMenu items={items} />
      </Container>
    </header>
  );
}
