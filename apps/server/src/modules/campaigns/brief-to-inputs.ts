import type { BriefData } from '@gem/contracts/brief-creator';
import { campaignChannels, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import { cutAtGrapheme, INPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import type { WritingToolInput, WritingToolName } from '@gem/contracts/writing-tools';

type AssetTool = Exclude<WritingToolName, 'summarize'>;
/** A tool and its inputs. */
export type ToolInputs = { [N in AssetTool]: { tool: N; input: WritingToolInput<N> } }[AssetTool];

/**
 * 'Generate from brief' (issue 29): a campaign's brief as the inputs of the writing tool that
 * makes a channel's asset. The base content is the brief's digest in Polish (the tools' prompts
 * are Polish; the brief's own words stay as the marketer wrote them); the task, the description
 * and the call to action come from the brief's objective, audience, messages and channel. The
 * page shows these inputs before anything is generated, and the marketer may change them.
 */

/** The longest digest: an input holds 20,000 characters, and the call to action rides beside it. */
export const DIGEST_MAX = INPUT_CHARACTER_LIMIT - 5_000;

/** The brief's filled fields, one per line, under Polish labels: the tools' base content. */
export function briefDigest(brief: BriefData): string {
  const lines: [string, string][] = [
    ['Kampania', brief.campaignName],
    ['Typ kampanii', brief.campaignType.join(', ')],
    ['Cel główny', brief.primaryObjective],
    ['Cel wydarzenia', brief.eventObjective],
    ['Data wydarzenia', brief.eventDate ?? ''],
    ['Grupa docelowa', brief.targetAudience],
    ['Kluczowe przekazy', brief.keyMessages],
    ['Harmonogram', brief.timeline],
    ['Kanały', brief.channels.join(', ')],
    ['Materiały kreatywne', brief.creativeAssets],
    ['Dodatkowe uwagi', brief.additionalNotes],
    ['Rekomendacje', brief.recommendations.join('; ')],
  ];
  const digest = lines
    .filter(([, value]) => value.trim() !== '')
    .map(([label, value]) => `${label}: ${value.trim()}`)
    .join('\n');
  // A brief's fields may hold more than one input takes: the digest keeps room for the task's
  // own words beside it.
  return cutAtGrapheme(digest, DIGEST_MAX);
}

/** What the asset should make the reader do: from the objective, else the event, else a general ask. */
export function callToAction(brief: BriefData): string {
  if (brief.eventDate || brief.eventObjective.trim() !== '') {
    return brief.eventDate
      ? `Zachęć do rejestracji na wydarzenie (${brief.eventDate}).`
      : 'Zachęć do rejestracji na wydarzenie.';
  }
  if (brief.primaryObjective.trim() !== '')
    return `Zakończ wezwaniem do działania, które służy celowi: ${brief.primaryObjective.trim()}`;
  return 'Zakończ krótkim wezwaniem do działania.';
}

/** A text built from the brief's fields, kept within one input's limit. */
const short = (text: string) => cutAtGrapheme(text, INPUT_CHARACTER_LIMIT);

const audienceOf = (brief: BriefData) =>
  brief.targetAudience.trim() === '' ? '' : ` Adresatem jest: ${brief.targetAudience.trim()}.`;

/** A source the campaign brought in: what the model may draw on besides the brief. */
export type BriefSource = { title: string; url: string; summary: string };

/** The sources as a block of the base content, numbered, each with its link. */
export function sourcesBlock(sources: readonly BriefSource[]): string {
  if (sources.length === 0) return '';
  const lines = sources.map(
    (source, i) => `[${i + 1}] ${source.title.trim()} (${source.url.trim()})\n${source.summary.trim()}`,
  );
  return `Źródła (można z nich korzystać tak samo jak z briefu):\n${lines.join('\n\n')}`;
}

/** The inputs of the tool that makes `channel`'s asset from `brief` and the campaign's sources. */
export function briefToInputs(
  brief: BriefData,
  channel: CampaignChannelId,
  sources: readonly BriefSource[] = [],
): ToolInputs {
  const { tool, label, postWords } = campaignChannels[channel];
  const digest = briefDigest(brief) || brief.campaignName.trim() || 'Kampania bez opisu.';
  const content = cutAtGrapheme([digest, sourcesBlock(sources)].filter(Boolean).join('\n\n'), DIGEST_MAX);
  const name = brief.campaignName.trim() || 'kampanii';
  switch (tool) {
    case 'article':
      return {
        tool,
        input: {
          content,
          task: short(
            `Napisz krótki artykuł na stronę lub bloga o kampanii „${name}”.${audienceOf(brief)} Oprzyj się na kluczowych przekazach. ${callToAction(brief)}`,
          ),
        },
      };
    case 'social-media-post':
      return {
        tool,
        input: {
          summary: content,
          content: short(brief.keyMessages.trim()) || content,
          description: short(`${label} kampanii „${name}”.${audienceOf(brief)} ${callToAction(brief)}`),
          format: postWords ?? 200,
          persona: 'CEO',
        },
      };
    case 'paid-ads':
    case 'teaser-generator':
      return { tool, input: { content: short(`${content}\n\n${label}. ${callToAction(brief)}`) } };
  }
}
