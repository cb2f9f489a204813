import {
  SEGMENT_VALUES_MAX,
  sizeBandLabel,
  sizeBands,
  type CampaignFacts,
  type Segment,
  type SizeDimension,
} from '@gem/contracts/campaign-audience-builder';
import type { CrmVocabulary } from '../../integrations/crm/crm';
import type { Logger } from '../../lib/crm-calls';
import type { ModelAnswer } from './campaign-audience-builder.model-answer';

/**
 * The segment the model chose, in values the CRM has (decision 018): a value it invented, or
 * spelled as no value the CRM has, is dropped and logged, never shown or put in a report link.
 */

/** Keeps the values the CRM has (in its spelling, matched without regard to case), once each. */
function keepKnown(values: string[], known: string[]): { kept: string[]; dropped: string[] } {
  const canonical = new Map(known.map((value) => [value.toLocaleLowerCase('pl'), value]));
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const value of values) {
    const match = canonical.get(value.trim().toLocaleLowerCase('pl'));
    if (match === undefined) dropped.push(value);
    else if (!kept.includes(match)) kept.push(match);
  }
  return { kept: kept.slice(0, SEGMENT_VALUES_MAX), dropped };
}

/**
 * The model's size bands as keys: a key in any case, or a band's label ("50–249 employees",
 * "PLN 10M–50M", "1,000+"), as models sometimes copy the label instead.
 */
function keepBands(
  values: string[],
  dimension: SizeDimension,
  offered: string[],
  currency: string | null,
): { kept: string[]; dropped: string[] } {
  const code = currency?.toLocaleLowerCase('pl');
  const plain = (text: string) => {
    const bare = text
      .toLocaleLowerCase('pl')
      .replace(/[\u2012-\u2015]/g, '-')
      .replace(/employees|pracownik\p{L}*|[\s,]/gu, '');
    return code ? bare.replaceAll(code, '') : bare;
  };
  const byForm = new Map<string, string>();
  for (const band of sizeBands[dimension]) {
    if (!offered.includes(band.key)) continue;
    for (const form of [
      band.key,
      sizeBandLabel(dimension, band.key),
      sizeBandLabel(dimension, band.key, currency),
    ])
      byForm.set(plain(form), band.key);
  }
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const value of values) {
    const key = byForm.get(plain(value));
    if (key === undefined) dropped.push(value);
    else if (!kept.includes(key)) kept.push(key);
  }
  // In band order, as the page and the links show them.
  return { kept: offered.filter((key) => kept.includes(key)), dropped };
}

/**
 * The answer's segment and past campaigns in the CRM's values, and what was dropped per kind
 * (logged here, and kept in the generation's record).
 */
export function keptSegment(
  answer: ModelAnswer,
  facts: CampaignFacts,
  vocabulary: CrmVocabulary,
  log: Logger,
): { segment: Segment; pastCampaigns: CampaignFacts['pastCampaigns']; dropped: Record<string, string[]> } {
  const chosen = {
    subIndustries: keepKnown(answer.subIndustries, vocabulary.subIndustries),
    roles: keepKnown(answer.roles, vocabulary.roles),
    titles: keepKnown(answer.titles, vocabulary.titles),
    workAreas: keepKnown(answer.workAreas, vocabulary.workAreas),
    employeeBands: keepBands(
      answer.employeeBands,
      'employeeBands',
      vocabulary.employeeBands,
      facts.revenueCurrency,
    ),
    revenueBands: keepBands(
      answer.revenueBands,
      'revenueBands',
      vocabulary.revenueBands,
      facts.revenueCurrency,
    ),
    campaigns: keepKnown(
      answer.campaignIds,
      facts.pastCampaigns.map((c) => c.id),
    ),
  };
  const dropped = Object.fromEntries(
    Object.entries(chosen)
      .filter(([, { dropped }]) => dropped.length > 0)
      .map(([kind, { dropped }]) => [kind, dropped]),
  );
  if (Object.keys(dropped).length > 0) {
    log.warn(
      { tool: 'campaign-audience-builder', dropped },
      'the model chose values the CRM does not have; dropped',
    );
  }
  const segment: Segment = {
    subIndustries: chosen.subIndustries.kept,
    roles: chosen.roles.kept,
    titles: chosen.titles.kept,
    workAreas: chosen.workAreas.kept,
    employeeBands: chosen.employeeBands.kept as Segment['employeeBands'],
    revenueBands: chosen.revenueBands.kept as Segment['revenueBands'],
  };
  const pastCampaigns = chosen.campaigns.kept.flatMap((id) => facts.pastCampaigns.filter((c) => c.id === id));
  return { segment, pastCampaigns, dropped };
}
