import type { RecordedRequest } from './scripted-replies';

/**
 * The stand-in model's answer to the campaign audience builder (schema
 * `campaign_audience_segments`): it picks from the values the schema offers as enums (the CRM's
 * values), the way a model that honours the schema can, and writes a short Polish explanation.
 * Used by `npm run ai:test-server`, the browser tests and the server tests.
 */

export const SEGMENTS_SCHEMA_NAME = 'campaign_audience_segments';

type ListSchema = { items?: { enum?: unknown[] }; maxItems?: number };

/** The first `count` values a list of the schema offers (none when it offers none). */
export function offeredValues(schema: unknown, field: string, count: number): string[] {
  const properties = (schema as { properties?: Record<string, ListSchema> } | undefined)?.properties;
  const list = properties?.[field];
  const values = (list?.items?.enum ?? []).filter((v): v is string => typeof v === 'string');
  return values.slice(0, Math.min(count, list?.maxItems ?? count));
}

/**
 * A plausible answer for a segments request: the first values offered of each kind, and, when
 * the goal asks for mid-sized companies ("średnich firm"), the 50–249 employee band if offered.
 */
export function segmentsReply(
  request: Pick<RecordedRequest, 'structured'> & { body?: Pick<RecordedRequest['body'], 'messages'> },
): Record<string, unknown> {
  const schema = request.structured?.schema;
  const subIndustries = offeredValues(schema, 'subIndustries', 2);
  const titles = offeredValues(schema, 'titles', 3);
  const asked = (request.body?.messages ?? []).map((m) => String(m.content)).join('\n');
  const midSized = /średni\p{L}* (?:firm|przedsiębiorstw)/iu.test(asked);
  return {
    explanation:
      `Najlepiej odpowiadali uczestnicy z podbranż ${subIndustries.join(' i ') || 'obecnych w kampanii'}, ` +
      `zwłaszcza na stanowiskach ${titles.join(', ') || 'decyzyjnych'}. ` +
      'Wcześniejsze kampanie tego typu potwierdzają, że ten segment reaguje na konkretne studia przypadków.',
    subIndustries,
    roles: offeredValues(schema, 'roles', 2),
    titles,
    workAreas: offeredValues(schema, 'workAreas', 2),
    employeeBands: midSized ? offeredValues(schema, 'employeeBands', 4).filter((b) => b === '50-249') : [],
    revenueBands: [],
    campaignIds: offeredValues(schema, 'campaignIds', 2),
    approach:
      'Zaproś segment osobistym mailem od partnera linii usług, z krótkim opisem korzyści i datą. ' +
      'Tydzień później przypomnij się osobom, które nie odpowiedziały, i dołącz raport z poprzedniej edycji.',
  };
}
