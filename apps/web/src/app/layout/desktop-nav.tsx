import { NavLink } from 'react-router';

import styles from './desktop-nav.module.css';
import type { NavItem } from './nav-items';

/** The navigation bar's links from 768 px up; below that the mobile menu takes over. */
export function DesktopNav({ items }: { items: readonly NavItem[] }) {
  return (
    <nav className={styles.nav} aria-label="Main">
      <ul className={styles.list}>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.end} className={item.signedInOnly ? styles.logout : styles.link}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
