import { findTool } from '@gem/contracts/catalogue';
import { Link } from 'react-router';

import { ArrowRightIcon } from '@/components/ui/icons';
import { InlineList } from '@/components/ui/inline-list';
import { Panel } from '@/components/ui/panel';
import { useAuth } from '@/lib/auth/auth-provider';

import { guideSections, limits, type ToolGuide } from '../guide';
import styles from './how-to-use.module.css';

const steps = [
  {
    title: 'Sign in',
    text: 'Use your Microsoft work account. The QR code generator works without signing in.',
  },
  {
    title: 'Pick a tool',
    text: 'Start from Tools, or from Market Research when a news item gives you an idea.',
  },
  {
    title: 'Give it good material',
    text: 'Paste real content and say who it is for. The better the input, the better the draft.',
  },
  {
    title: 'Check, then use',
    text: 'Read every draft, fix facts and names, then copy or download the result.',
  },
];

const contents = [
  { id: 'getting-started', title: 'Getting started' },
  ...guideSections.map(({ id, title }) => ({ id, title })),
  { id: 'limits', title: 'Limits at a glance' },
  { id: 'access', title: 'Access and help' },
];

/** The How to use page (spec §2): help for the marketing team, tool by tool. */
export function HowToUse() {
  const contacts = useAuth().config?.accessContacts ?? [];
  return (
    <div className={styles.layout}>
      <Panel as="nav" elevation="flat" className={styles.toc} aria-labelledby="how-to-use-contents">
        <p id="how-to-use-contents" className={styles.tocTitle}>
          On this page
        </p>
        <ol className={styles.tocList}>
          {contents.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`}>{entry.title}</a>
            </li>
          ))}
        </ol>
      </Panel>

      <div className={styles.content}>
        <section id="getting-started" className={styles.section} aria-labelledby="getting-started-title">
          <h2 id="getting-started-title" className={styles.sectionTitle}>
            Getting started
          </h2>
          <p className={styles.sectionIntro}>
            GEM is the marketing team’s workspace: curated news from the markets and clients we follow, and
            tools that turn base content into articles, posts, ads, briefs, subtitles and QR codes.
          </p>
          <ol className={styles.steps}>
            {steps.map((step, index) => (
              <Panel as="li" key={step.title} className={styles.step}>
                <span className={styles.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <h3 className={styles.stepTitle}>{step.title}</h3>
                <p>{step.text}</p>
              </Panel>
            ))}
          </ol>
        </section>

        {guideSections.map((section) => (
          <section
            key={section.id}
            id={section.id}
            className={styles.section}
            aria-labelledby={`${section.id}-title`}
          >
            <h2 id={`${section.id}-title`} className={styles.sectionTitle}>
              {section.title}
            </h2>
            <p className={styles.sectionIntro}>{section.intro}</p>
            <div className={styles.tools}>
              {section.tools.map((guide) => (
                <ToolCard key={guide.slug} guide={guide} />
              ))}
            </div>
          </section>
        ))}

        <section id="limits" className={styles.section} aria-labelledby="limits-title">
          <h2 id="limits-title" className={styles.sectionTitle}>
            Limits at a glance
          </h2>
          <Panel className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col">Limit</th>
                </tr>
              </thead>
              <tbody>
                {limits.map((row) => (
                  <tr key={row.what}>
                    <th scope="row">{row.what}</th>
                    <td>{row.limit}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Panel>
        </section>

        <section id="access" className={styles.section} aria-labelledby="access-title">
          <h2 id="access-title" className={styles.sectionTitle}>
            Access and help
          </h2>
          <Panel accent className={styles.accessCard}>
            <p>
              GEM is for the marketing team. Everyone signs in with their Microsoft work account; access to
              the tools is granted separately. If GEM shows <strong>Access Denied</strong> after you sign in,
              or a tool tells you to sign in again, ask for access
              {contacts.length > 0 ? (
                <> from one of these people:</>
              ) : (
                <> from the GEM administrators named on the Access Denied screen.</>
              )}
            </p>
            {contacts.length > 0 ? (
              <InlineList className={styles.contacts}>
                {contacts.map((email) => (
                  <li key={email}>
                    <a href={`mailto:${email}?subject=${encodeURIComponent('Access to GEM')}`}>{email}</a>
                  </li>
                ))}
              </InlineList>
            ) : null}
            <p className={styles.muted}>
              Say which tools you need and for which team; they will add your account. Something not working
              as this page describes? Write to the same people, with the page address and what you did.
            </p>
          </Panel>
        </section>
      </div>
    </div>
  );
}

function ToolCard({ guide }: { guide: ToolGuide }) {
  const tool = findTool(guide.slug);
  if (!tool) return null;
  const titleId = `guide-${guide.slug}`;
  return (
    <Panel as="article" className={styles.tool} aria-labelledby={titleId}>
      <header className={styles.toolHeader}>
        <img src={tool.photo} alt="" width={96} height={54} className={styles.toolImage} loading="lazy" />
        <div className={styles.toolHeading}>
          <h3 id={titleId} className={styles.toolTitle}>
            {tool.name}
            {!tool.authRequired ? <span className={styles.free}>Free</span> : null}
          </h3>
          <p className={styles.toolDoes}>{guide.does}</p>
        </div>
        <Link to={`/tools/${tool.slug}`} className={styles.open} aria-label={`Open ${tool.name}`}>
          Open
          <ArrowRightIcon />
        </Link>
      </header>
      <div className={styles.toolBody}>
        <div>
          <h4 className={styles.listTitle}>For good results</h4>
          <ul className={styles.tips}>
            {guide.tips.map((tip, index) => (
              <li key={index}>{tip}</li>
            ))}
          </ul>
        </div>
        {guide.example ? (
          <div className={styles.example}>
            <h4 className={styles.listTitle}>Phrasing the task</h4>
            <p className={styles.weak}>
              <span>Vague</span>“{guide.example.weak}”
            </p>
            <p className={styles.strong}>
              <span>Clear</span>“{guide.example.strong}”
            </p>
          </div>
        ) : null}
        {guide.limits ? (
          <div>
            <h4 className={styles.listTitle}>Limits</h4>
            <ul className={styles.limits}>
              {guide.limits.map((limit, index) => (
                <li key={index}>{limit}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </Panel>
  );
}
