import { freeTools } from '@gem/contracts/catalogue';
import { Link } from 'react-router';

import { Container } from '@/components/ui/container';

import { Brand } from './brand';
import styles from './footer.module.css';
import type { NavItem } from './nav-items';

export function Footer({ items }: { items: readonly NavItem[] }) {
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
          <p>© {new Date().getFullYear()} GEM · Generative and Enhanced Marketing</p>
          <p>For internal use by the marketing team.</p>
        </div>
      </Container>
    </footer>
  );
}
