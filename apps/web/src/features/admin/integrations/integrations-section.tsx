import type { IntegrationSetting, IntegrationsResponse } from '@gem/contracts/admin-integrations';
import { useId, type ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Panel } from '@/components/ui/panel';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { formatInteger } from '@/lib/format-number';

import { useIntegrations } from './api/integrations';
import styles from './integrations-section.module.css';

/** When, or 'never'. */
const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'never');

const providerNames: Record<string, string> = {
  openai: 'OpenAI',
  azure: 'Azure OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
  demo: 'Built-in stand-in (example answers)',
  embedded: 'GEM’s demo CRM (fictional data)',
  salesforce: 'Salesforce',
};

/**
 * The admin area's integrations (issue 30): the health of each service GEM depends on, as the
 * server's records and one small CRM call tell it, with the settings that choose each. This is
 * the one page that names settings; the marketers' pages say whom to ask instead.
 */
export function IntegrationsSection() {
  const health = useIntegrations();
  if (health.isError) {
    return (
      <p className={styles.problem} role="alert">
        {health.error instanceof ApiError
          ? health.error.message
          : 'The integrations could not be read. Try again.'}
      </p>
    );
  }
  if (!health.data) {
    return (
      <p className={styles.muted} role="status">
        Checking the integrations…
      </p>
    );
  }
  const { ai, feeds, competitors, crm, metrics, checkedAt } = health.data;
  return (
    <div className={styles.section}>
      <p className={styles.muted}>Checked {formatDateTime(checkedAt)}. The page checks again every minute.</p>
      <AiBlock ai={ai} />
      <Block
        title="Market Research feeds"
        status={<FeedsStatus feeds={feeds.list} />}
        settings={feeds.settings}
        description={`Each feed is read every ${feeds.refreshMinutes} minutes; a feed that fails keeps its last good items.`}
      >
        {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too. */}
        <div className={styles.tableWrap} role="region" aria-label="Feeds" tabIndex={0}>
          <table className={styles.table}>
            <caption className="visually-hidden">Feeds</caption>
            <thead>
              <tr>
                <th scope="col">Feed</th>
                <th scope="col">Last good read</th>
                <th scope="col">Last error</th>
                <th scope="col" className={styles.number}>
                  Items
                </th>
              </tr>
            </thead>
            <tbody>
              {feeds.list.map((feed) => (
                <tr key={feed.key}>
                  <th scope="row">
                    <span className={styles.name}>{feed.key}</span>
                    <span className={styles.address}>{feed.sample ? 'Bundled sample feed' : feed.url}</span>
                  </th>
                  <td>{when(feed.lastGoodReadAt)}</td>
                  <td>
                    {feed.lastError ? (
                      <>
                        <span className={styles.bad}>{feed.lastError}</span>
                        <span className={styles.muted}>
                          {' '}
                          {when(feed.lastFailureAt)}
                          {feed.failingSince ? `, failing since ${when(feed.failingSince)}` : ''}
                        </span>
                      </>
                    ) : (
                      'none'
                    )}
                  </td>
                  <td className={styles.number}>{formatInteger(feed.items)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Block>
      <Block
        title="Competitors"
        status={
          competitors.crawl ? (
            <Badge tone="success">Crawling every {competitors.crawlMinutes} minutes</Badge>
          ) : (
            <Badge>Crawling off: sample pages stand in</Badge>
          )
        }
        settings={competitors.settings}
        description={`Searches go to ${competitors.searchProvider === 'brave' ? 'the Brave Search API' : 'GEM’s own index'}.`}
      >
        <div className={styles.tableWrap} role="region" aria-label="Competitors" tabIndex={0}>
          <table className={styles.table}>
            <caption className="visually-hidden">Competitors</caption>
            <thead>
              <tr>
                <th scope="col">Competitor</th>
                <th scope="col">Last crawl</th>
                <th scope="col" className={styles.number}>
                  Pages
                </th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {competitors.list.map((c) => (
                <tr key={c.key}>
                  <th scope="row">
                    <span className={styles.name}>{c.name}</span>
                    <span className={styles.address}>{c.site}</span>
                  </th>
                  <td>
                    {when(c.lastCrawlFinishedAt ?? c.lastCrawlStartedAt)}
                    {c.lastCrawlStartedAt ? (
                      <span className={styles.muted}> ({formatInteger(c.pagesLastCrawl)} pages stored)</span>
                    ) : null}
                  </td>
                  <td className={styles.number}>
                    {formatInteger(c.pages)}
                    {c.samplePages > 0 ? (
                      <span className={styles.muted}> ({formatInteger(c.samplePages)} sample)</span>
                    ) : null}
                  </td>
                  <td>{c.lastError ? <span className={styles.bad}>{c.lastError}</span> : 'none'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Block>
      <Block
        title="CRM"
        status={
          crm.reachable ? <Badge tone="success">Reachable</Badge> : <Badge tone="brand">Not reachable</Badge>
        }
        settings={crm.settings}
      >
        <dl className={styles.facts}>
          <Fact term="Provider">{providerNames[crm.provider] ?? crm.provider}</Fact>
          {crm.provider === 'embedded' ? (
            <Fact term="Where">In GEM’s own database</Fact>
          ) : (
            <Fact term="Last call">
              {formatDateTime(crm.checkedAt)} ({formatInteger(crm.latencyMs)} ms)
            </Fact>
          )}
          {crm.error ? (
            <Fact term="Problem">
              <span className={styles.bad}>{crm.error}</span>
            </Fact>
          ) : null}
        </dl>
      </Block>
      <Block
        title="Metrics"
        status={metrics.address ? <Badge tone="success">Served</Badge> : <Badge>Off</Badge>}
        settings={metrics.settings}
      >
        <dl className={styles.facts}>
          <Fact term="Address">{metrics.address ?? 'Not served'}</Fact>
        </dl>
      </Block>
    </div>
  );
}

function AiBlock({ ai }: { ai: IntegrationsResponse['ai'] }) {
  const rate = ai.lastHour.errorRate;
  const status = !ai.configured ? (
    <Badge tone="brand">Not configured</Badge>
  ) : ai.demo ? (
    <Badge>Example answers</Badge>
  ) : rate !== null && rate >= 0.2 ? (
    <Badge tone="brand">Failing often</Badge>
  ) : (
    <Badge tone="success">Working</Badge>
  );
  return (
    <Block title="AI service" status={status} settings={ai.settings}>
      <dl className={styles.facts}>
        <Fact term="Provider">{ai.provider ? (providerNames[ai.provider] ?? ai.provider) : 'none'}</Fact>
        <Fact term="Model">{ai.model ?? 'none'}</Fact>
        <Fact term="Last call">
          {ai.lastCall ? (
            <>
              {formatDateTime(ai.lastCall.at)},{' '}
              <span className={ai.lastCall.outcome === 'failed' ? styles.bad : undefined}>
                {ai.lastCall.outcome}
                {ai.lastCall.errorCode ? ` (${ai.lastCall.errorCode})` : ''}
              </span>
            </>
          ) : (
            'never'
          )}
        </Fact>
        <Fact term="Last hour">
          {formatInteger(ai.lastHour.calls)} calls, {formatInteger(ai.lastHour.failures)} failed
          {rate !== null ? ` (error rate ${Math.round(rate * 100)}%)` : ''}
        </Fact>
      </dl>
    </Block>
  );
}

function FeedsStatus({ feeds }: { feeds: IntegrationsResponse['feeds']['list'] }) {
  const failing = feeds.filter((f) => f.failingSince !== null).length;
  return failing > 0 ? (
    <Badge tone="brand">{failing === 1 ? '1 feed failing' : `${failing} feeds failing`}</Badge>
  ) : (
    <Badge tone="success">{feeds.length === 1 ? '1 feed' : `${feeds.length} feeds`}</Badge>
  );
}

function Block({
  title,
  status,
  description,
  settings,
  children,
}: {
  title: string;
  status: ReactNode;
  description?: string;
  settings: IntegrationSetting[];
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Panel as="section" className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHeader}>
        <h2 id={headingId} className={styles.title}>
          {title} {status}
        </h2>
        {description ? <p className={styles.muted}>{description}</p> : null}
      </div>
      {children}
      <details className={styles.settings}>
        <summary>Settings</summary>
        <dl className={styles.settingList}>
          {settings.map((s) => (
            <div key={s.name} className={styles.setting}>
              <dt>
                <code>{s.name}</code>
              </dt>
              <dd>
                {s.value === null ? <span className={styles.muted}>not set</span> : <code>{s.value}</code>}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </Panel>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className={styles.fact}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
