import { freeTools } from '@gem/contracts/catalogue';
import { Link } from 'react-router';

import styles from './identity.module.css';

/** The tools anyone can use without signing in (spec §2 /login, Access Denied). */
export function FreeToolsList() {
  return (
    <section className={styles.freeTools} aria-labelledby="free-tools-heading">
      <h2 id="free-tools-heading" className={styles.freeToolsHeading}>
        Free tools, no sign-in needed
      </h2>
      <ul className={styles.freeToolsList}>
        {freeTools.map((tool) => (
          <li key={tool.slug}>
            <Link to={`/tools/${tool.slug}`} className={styles.freeTool}>
              <img src={tool.photo} alt="" width={96} height={54} />
              <span>
                <strong>{tool.name}</strong>
                <span className={styles.freeToolSummary}>{tool.summary}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
