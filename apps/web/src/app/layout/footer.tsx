import { freeTools } from '@gem/contracts/catalogue';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';

import { Container } from '@/components/ui/container';
import { env } from '@/config/env';

import { Brand } from './brand';
import styles from './footer.module.css';
import type { NavItem } from './nav-items';

const subscribeNever = () => () => undefined;
const currentYear = () => new Date().getFullYear();
const buildYear = () => env.buildYear;

export function Footer({ items }: { items: readonly NavItem[] }) {
  // Prerendered pages show the build's year; hydration starts from the same, then takes today's.
  const year = useSyncExternalStore(subscribeNever, currentYear, buildYear);
  return (
    <footer className={styles.footer}>
      <Container>
        <div className={styles.top}>
          <div className={styles.about}>
            <Brand onDark />
            <p>The marketing team&apos;s workspace for market news and AI-assisted content, in one place.</p>
          </div>
          <nav aria-labelledby="footer-explore">
            <h2 id="footer-explore" className={styles.title}>
              Explore
            </h2>
            <ul className={styles.list}>
              {items.map((item) => (
                <li key={item.to}>
                  <Link className={styles.link} to={item.to}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-labelledby="footer-free">
            <h2 id="footer-free" className={styles.title}>
              No sign-in needed
            </h2>
            <ul className={styles.list}>
              {freeTools.map((tool) => (
                <li key={tool.slug}>
                  <Link className={styles.link} to={`/tools/${tool.slug}`}>
                    {tool.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <div className={styles.bottom}>
          <p>© {year} GEM · Generative and Enhanced Marketing</p>
          <p>For internal use by the marketing team.</p>
        </div>
      </Container>
    </footer>
  );
}
