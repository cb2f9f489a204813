import { sizeBandLabel, type CampaignFacts, type ValueCount } from '@gem/contracts/campaign-audience-builder';

import { HorizontalBarChart } from '@/components/ui/horizontal-bar-chart';
import { Split } from '@/components/ui/split';

import { rateOf } from '../format';
import styles from './audience-results.module.css';

/** Responders in the brand colour; the rest in a warm grey (both keep 3:1 against white). */
const series = [
  { key: 'responders', name: 'Responded', colour: '#fd5108' },
  { key: 'nonResponders', name: 'Did not respond', colour: '#9a8f86' },
];

function chartOf(counts: readonly ValueCount[], labelOf: (value: string) => string = (value) => value) {
  return counts.map((count) => ({
    key: count.value,
    label: labelOf(count.value),
    fullLabel: labelOf(count.value),
    values: { responders: count.responders, nonResponders: count.nonResponders },
  }));
}

const respondedOf = (category: { values: Record<string, number> }) => {
  const responders = category.values.responders ?? 0;
  const members = responders + (category.values.nonResponders ?? 0);
  return `${responders} of ${members} · ${rateOf(responders, members)}`;
};

/**
 * The campaign's members by sub-industry, by title and by company size (employees, annual
 * revenue), responders and the rest, as small horizontal stacked bars (visx, loaded with this
 * component only).
 */
type Chart = {
  counts: readonly ValueCount[];
  caption: string;
  description: string;
  categoryHeader: string;
  /** A value as the chart names it (a band's key as its label). */
  labelOf?: (value: string) => string;
};

export function FactsCharts({ facts }: { facts: CampaignFacts }) {
  const charts: Chart[] = [
    {
      counts: facts.bySubIndustry,
      caption: 'Members by sub-industry',
      description: 'Who responded to the campaign, by their account’s sub-industry.',
      categoryHeader: 'Sub-industry',
    },
    {
      counts: facts.byTitle,
      caption: 'Members by title',
      description: 'Who responded to the campaign, by job title.',
      categoryHeader: 'Title',
    },
    {
      counts: facts.byEmployees,
      caption: 'Members by company size',
      description: 'Who responded, by how many people their company employs.',
      categoryHeader: 'Employees',
      labelOf: (key: string) => sizeBandLabel('employeeBands', key),
    },
    {
      counts: facts.byRevenue,
      caption: 'Members by annual revenue',
      description: 'Who responded, by their company’s annual revenue.',
      categoryHeader: 'Annual revenue',
      labelOf: (key: string) => sizeBandLabel('revenueBands', key, facts.revenueCurrency),
    },
  ];
  return (
    <Split gap="md">
      {charts
        .filter((chart) => chart.counts.length > 0)
        .map(({ counts, labelOf, ...labels }) => (
          <div key={labels.caption} className={styles.chartCard}>
            <HorizontalBarChart
              {...labels}
              categories={chartOf(counts, labelOf)}
              series={series}
              valueLabel={respondedOf}
            />
          </div>
        ))}
    </Split>
  );
}
