import type { MarketArea } from '@gem/contracts/catalogue';
import { Link, NavLink } from 'react-router';

import { ButtonLink } from '@/components/ui/button';
import { ArrowLeftIcon, ArrowRightIcon } from '@/components/ui/icons';
import { InlineList } from '@/components/ui/inline-list';
import { Panel } from '@/components/ui/panel';

import styles from './market-feed.module.css';

type MarketPanelProps = {
  market: MarketArea;
  summary: string | undefined;
};

/** Spec §2 left panel: the area name, its sub-areas, 'Creator' and 'Return'. */
export function MarketPanel({ market, summary }: MarketPanelProps) {
  return (
    <Panel as="aside" className={styles.panel} aria-labelledby="market-title">
      <p className={styles.eyebrow}>Market Research</p>
      <h1 id="market-title" className={styles.panelTitle}>
        <Link to={`/market-research/${market.slug}`} className={styles.panelTitleLink}>
          {market.name}
        </Link>
      </h1>
      {summary ? <p className={styles.panelSummary}>{summary}</p> : null}
      {market.children.length > 0 ? (
        <nav className={styles.children} aria-labelledby="market-children">
          <h2 id="market-children" className={styles.childrenTitle}>
            Looking for in-depth info on a specific client?
          </h2>
          <InlineList>
            {market.children.map((child) => (
              <li key={child.slug}>
                <NavLink
                  to={`/market-research/${market.slug}/${child.slug}`}
                  className={({ isActive }) =>
                    [styles.childLink, isActive ? styles.childLinkActive : ''].join(' ')
                  }
                >
                  {child.name}
                </NavLink>
              </li>
            ))}
          </InlineList>
        </nav>
      ) : null}
      <div className={styles.panelActions}>
        <ButtonLink to="/tools" variant="brand">
          Creator
          <ArrowRightIcon />
        </ButtonLink>
        <Link to="/market-research" className={styles.returnLink}>
          <ArrowLeftIcon />
          Return
        </Link>
      </div>
    </Panel>
  );
}
