/**
 * How real models answer GEM's structured requests (issue 26): the brief chat's turn, the target
 * audience, the recommendations, and the audience builder's segments, as GPT-4o/4.1, Claude,
 * Llama 3 70B and Mistral send them. Strict JSON-schema decoding (OpenAI) keeps to the shape;
 * json_object mode, proxies and open models do not: the JSON comes in a ```json fence, after a
 * sentence ("Oto odpowiedź w formacie JSON:"), before a note ("Daj znać…", "Let me know…"),
 * without the keys that did not change, with "" for them, as a tool call written as text, or cut
 * at max_tokens. Each case holds the answer as the model sent it and what GEM must make of it;
 * the ones that obey are here too.
 *
 * An answer is the message's content in JSON-schema mode and the tool call's arguments in tool
 * mode (`asText`: the content in both, a model that ignored the tool; `preamble`: text the model
 * wrote beside its tool call).
 */

import type { ScriptedReply } from '../scripted-replies';
import type { ModelFamily } from './writing';

export type StructuredTool = 'brief-chat' | 'target-audience' | 'recommendations' | 'audience-segments';

/** The CRM's values a segments request offers (the first of each list), for answers that use them. */
export type OfferedValues = {
  subIndustries: string[];
  roles: string[];
  titles: string[];
  workAreas: string[];
  campaignIds: string[];
};

/** What GEM must make of an answer. */
export type StructuredExpectation =
  /** The chat's answer, the brief after the turn (these fields at least), and the confirmation flag. */
  | { tool: 'brief-chat'; response: string; brief: Record<string, unknown>; isAwaitingConfirmation: boolean }
  | { tool: 'target-audience'; targetAudience: string }
  | { tool: 'recommendations'; recommendations: string[] }
  | {
      tool: 'audience-segments';
      explanation: string;
      approach: string;
      /** The lists the answer chose, from the offered values. */
      segment: (offered: OfferedValues) => Omit<OfferedValues, 'campaignIds'>;
    };

export type StructuredAnswerCase = {
  id: string;
  tool: StructuredTool;
  family: ModelFamily;
  language: 'Polish' | 'English';
  /** What the model did. */
  habit: string;
  /** The answer as the model sent it. */
  answer: string | ((offered: OfferedValues) => string);
  /** The answer was cut at max_tokens (finish_reason `length`). */
  cut?: true;
  /** Content, even in tool mode: the model wrote its tool call as text. */
  asText?: true;
  /** Tool mode: text the model wrote before its call. */
  preamble?: string;
  /** `incomplete`: cut before the object closed; asked once more, cut again, a clear error. */
  expected: StructuredExpectation | 'incomplete';
};

/** The brief the chat cases start from (sent as the brief corrected by hand). */
export const startingBrief = {
  campaignName: 'Digital CFO Summit 2027',
  budget: '50 000 PLN',
  channels: ['LinkedIn', 'E-mail'],
};

const briefFields = [
  'campaignName',
  'campaignType',
  'primaryObjective',
  'eventObjective',
  'eventDate',
  'targetAudience',
  'budget',
  'timeline',
  'keyMessages',
  'channels',
  'activityKPIs',
  'businessKPIs',
  'creativeAssets',
  'additionalNotes',
] as const;

/** Every brief field, null unless given: the shape as the schema asks for it. */
const allKeys = (updates: Record<string, unknown>) =>
  Object.fromEntries(briefFields.map((field) => [field, updates[field] ?? null]));

const json = (value: unknown) => JSON.stringify(value, null, 2);

// The brief chat

const plAnswer =
  'Świetnie, to konferencja dla dyrektorów finansowych. Jaki jest jej główny cel i kiedy się odbędzie?';
const plTurn = {
  standardAnswer: plAnswer,
  briefUpdates: allKeys({ campaignType: ['Event'], primaryObjective: null }),
  isAwaitingConfirmation: false,
};
const enAnswer = 'Thanks, noted. What is the primary objective, and when does it take place?';
const enUpdates = {
  campaignType: ['Event', 'Webinar'],
  targetAudience: 'CFOs of mid-size manufacturers in Poland',
};

const briefChat: StructuredAnswerCase[] = [
  {
    id: 'chat-obeys',
    tool: 'brief-chat',
    family: 'gpt-4o',
    language: 'English',
    habit: 'obeys: every key, null for the unchanged ones',
    answer: JSON.stringify({
      standardAnswer: enAnswer,
      briefUpdates: allKeys(enUpdates),
      isAwaitingConfirmation: false,
    }),
    expected: {
      tool: 'brief-chat',
      response: enAnswer,
      brief: { ...startingBrief, ...enUpdates },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-json-fence',
    tool: 'brief-chat',
    family: 'mistral',
    language: 'Polish',
    habit: 'the JSON in a ```json fence',
    answer: `\`\`\`json\n${json(plTurn)}\n\`\`\``,
    expected: {
      tool: 'brief-chat',
      response: plAnswer,
      brief: { ...startingBrief, campaignType: ['Event'] },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-preamble',
    tool: 'brief-chat',
    family: 'llama-3',
    language: 'Polish',
    habit: 'a sentence before the JSON',
    answer: `Oto odpowiedź w formacie JSON:\n\n${json(plTurn)}`,
    expected: {
      tool: 'brief-chat',
      response: plAnswer,
      brief: { ...startingBrief, campaignType: ['Event'] },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-trailing-note',
    tool: 'brief-chat',
    family: 'gpt-4o',
    language: 'Polish',
    habit: 'valid JSON followed by „Daj znać…” (after the content, or after the tool call’s arguments)',
    answer: `${JSON.stringify(plTurn)}\n\nDaj znać, jeśli chcesz coś zmienić w briefie – chętnie pomogę {np. w harmonogramie}.`,
    expected: {
      tool: 'brief-chat',
      response: plAnswer,
      brief: { ...startingBrief, campaignType: ['Event'] },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-missing-keys',
    tool: 'brief-chat',
    family: 'claude',
    language: 'English',
    habit: 'briefUpdates without the unchanged keys',
    answer: JSON.stringify({
      standardAnswer: enAnswer,
      briefUpdates: enUpdates,
      isAwaitingConfirmation: false,
    }),
    preamble: 'I’ll update the brief with the campaign type and audience.',
    expected: {
      tool: 'brief-chat',
      response: enAnswer,
      brief: { ...startingBrief, ...enUpdates },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-empty-for-unchanged',
    tool: 'brief-chat',
    family: 'llama-3',
    language: 'Polish',
    habit: '"" and [] for the unchanged fields, and no isAwaitingConfirmation',
    answer: json({
      standardAnswer: plAnswer,
      briefUpdates: {
        ...Object.fromEntries(briefFields.map((field) => [field, ''])),
        campaignType: ['Event'],
        eventDate: '',
        channels: [],
        activityKPIs: [],
        businessKPIs: [],
      },
    }),
    expected: {
      tool: 'brief-chat',
      response: plAnswer,
      brief: { ...startingBrief, campaignType: ['Event'], eventDate: null },
      isAwaitingConfirmation: false,
    },
  },
  {
    id: 'chat-cut-at-max-tokens',
    tool: 'brief-chat',
    family: 'gpt-4o',
    language: 'English',
    habit: 'cut at max_tokens in the middle of the summary (finish_reason length)',
    answer:
      '{"standardAnswer": "Here is the brief so far:\\n- Campaign name: Digital CFO Summit 2027\\n- Campaign type: Event, Webinar\\n- Primary objective: 40 qualified leads among CFOs\\n- Key messages: Reporting in hours, not weeks\\n- Channels: LinkedIn, E-mail\\n- Activity KPIs: 300 registr',
    cut: true,
    expected: 'incomplete',
  },
];

// The target audience

const audiencePl =
  'Dyrektorzy finansowi i członkowie zarządów średnich firm produkcyjnych w Polsce (250–2000 pracowników), odpowiedzialni za raportowanie i budżet. Potrzebują szybszych, wiarygodnych danych do decyzji i chcą ograniczyć ręczną pracę przy raportach.';
const audienceEn =
  'CFOs and finance directors of mid-size manufacturers in Poland (250–2,000 employees) who own reporting and budgets. They need faster, reliable figures for decisions and want less manual work on reports.';

const targetAudience: StructuredAnswerCase[] = [
  {
    id: 'audience-obeys',
    tool: 'target-audience',
    family: 'gpt-4o',
    language: 'Polish',
    habit: 'obeys',
    answer: JSON.stringify({ targetAudience: audiencePl }),
    expected: { tool: 'target-audience', targetAudience: audiencePl },
  },
  {
    id: 'audience-json-fence',
    tool: 'target-audience',
    family: 'mistral',
    language: 'English',
    habit: 'the JSON in a ```json fence',
    answer: `\`\`\`json\n${json({ targetAudience: audienceEn })}\n\`\`\``,
    expected: { tool: 'target-audience', targetAudience: audienceEn },
  },
  {
    id: 'audience-question-in-field',
    tool: 'target-audience',
    family: 'llama-3',
    language: 'Polish',
    habit: 'a question to the user at the end of the field',
    answer: JSON.stringify({
      targetAudience: `${audiencePl} Czy chcesz, żebym doprecyzował branże albo wielkość firm?`,
    }),
    expected: { tool: 'target-audience', targetAudience: audiencePl },
  },
  {
    id: 'audience-preamble',
    tool: 'target-audience',
    family: 'claude',
    language: 'English',
    habit: 'a sentence before the JSON',
    answer: `Here's a target audience description based on the brief:\n\n${json({ targetAudience: audienceEn })}`,
    expected: { tool: 'target-audience', targetAudience: audienceEn },
  },
  {
    id: 'audience-trailing-note',
    tool: 'target-audience',
    family: 'gpt-4o',
    language: 'Polish',
    habit: 'JSON followed by „Daj znać…”',
    answer: `${JSON.stringify({ targetAudience: audiencePl })}\nDaj znać, jeśli mam go skrócić.`,
    expected: { tool: 'target-audience', targetAudience: audiencePl },
  },
  {
    id: 'audience-cut-at-max-tokens',
    tool: 'target-audience',
    family: 'llama-3',
    language: 'English',
    habit: 'cut at max_tokens (finish_reason length)',
    answer:
      '{"targetAudience": "CFOs and finance directors of mid-size manufacturers in Poland (250–2,000 employ',
    cut: true,
    expected: 'incomplete',
  },
];

// The recommendations

const recommendationsPl = [
  'Promuj konferencję na LinkedIn przez trzy tygodnie przed wydarzeniem, z jednym postem sponsorowanym tygodniowo skierowanym do dyrektorów finansowych.',
  'Wyślij zaproszenie e-mailem cztery tygodnie wcześniej oraz dwa przypomnienia: tydzień i dzień przed wydarzeniem.',
  'Mierz co tydzień liczbę rejestracji i celuj w 40% obecności zarejestrowanych.',
  'Po wydarzeniu wyślij wszystkim zarejestrowanym jednostronicowe podsumowanie najważniejszych wniosków.',
];
const recommendationsEn = [
  'Promote the summit on LinkedIn for three weeks before the date, with one sponsored post a week aimed at finance leaders.',
  'Send the invitation e-mail four weeks ahead, and two reminders: one week and one day before.',
  'Track registrations weekly and aim for 40% attendance.',
  'Send every registrant a one-page summary of the key findings afterwards.',
];

const recommendations: StructuredAnswerCase[] = [
  {
    id: 'recommendations-obeys',
    tool: 'recommendations',
    family: 'gpt-4o',
    language: 'English',
    habit: 'obeys',
    answer: JSON.stringify({ recommendations: recommendationsEn }),
    expected: { tool: 'recommendations', recommendations: recommendationsEn },
  },
  {
    id: 'recommendations-fence-numbered',
    tool: 'recommendations',
    family: 'llama-3',
    language: 'Polish',
    habit: 'a ```json fence, and each item numbered inside its text',
    answer: `\`\`\`json\n${json({ recommendations: recommendationsPl.map((item, i) => `${i + 1}. ${item}`) })}\n\`\`\``,
    expected: { tool: 'recommendations', recommendations: recommendationsPl },
  },
  {
    id: 'recommendations-preamble-and-note',
    tool: 'recommendations',
    family: 'claude',
    language: 'Polish',
    habit: 'a sentence before the JSON and a wish after it',
    answer: `Oto rekomendacje dla tej kampanii:\n\n${json({ recommendations: recommendationsPl })}\n\nMam nadzieję, że okażą się pomocne!`,
    expected: { tool: 'recommendations', recommendations: recommendationsPl },
  },
  {
    id: 'recommendations-tool-call-as-text',
    tool: 'recommendations',
    family: 'llama-3',
    language: 'English',
    habit: 'the tool call written as text: {"name": …, "parameters": {…}}',
    answer: JSON.stringify({
      name: 'brief_recommendations',
      parameters: { recommendations: recommendationsEn },
    }),
    asText: true,
    expected: { tool: 'recommendations', recommendations: recommendationsEn },
  },
  {
    id: 'recommendations-upper-case-fence',
    tool: 'recommendations',
    family: 'mistral',
    language: 'English',
    habit: 'a ```JSON fence after a sentence',
    answer: `Sure! Here are my recommendations:\n\`\`\`JSON\n${json({ recommendations: recommendationsEn })}\n\`\`\``,
    expected: { tool: 'recommendations', recommendations: recommendationsEn },
  },
  {
    id: 'recommendations-cut-at-max-tokens',
    tool: 'recommendations',
    family: 'mistral',
    language: 'Polish',
    habit: 'cut at max_tokens (finish_reason length)',
    answer: `{"recommendations": ["${recommendationsPl[0]}", "Wyślij zaproszenie e-mailem cztery tygodnie wcze`,
    cut: true,
    expected: 'incomplete',
  },
];

// The audience builder's segments

const explanationPl =
  'Najlepiej odpowiadali dyrektorzy finansowi z podbranż produkcyjnych: ich wskaźnik odpowiedzi był wyraźnie wyższy niż średnia kampanii. Wcześniejsze kampanie tego typu potwierdzają, że ten segment reaguje na konkretne studia przypadków.';
const approachPl =
  'Zaproś segment osobistym e-mailem od partnera linii usług, z krótkim opisem korzyści i datą. Tydzień później przypomnij się osobom, które nie odpowiedziały, i dołącz raport z poprzedniej edycji.';
const explanationEn =
  'Finance leaders in the manufacturing sub-industries responded best, well above the campaign average. Past campaigns of this type confirm that this segment reacts to concrete case studies.';
const approachEn =
  'Invite the segment with a personal e-mail from the line-of-service partner, with a short benefit statement and the date. Follow up a week later with those who did not respond, attaching last year’s report.';

const segmentOf = (offered: OfferedValues) => ({
  subIndustries: offered.subIndustries.slice(0, 2),
  roles: offered.roles.slice(0, 1),
  titles: offered.titles.slice(0, 2),
  workAreas: offered.workAreas.slice(0, 1),
});
const segmentsAnswer = (offered: OfferedValues, explanation: string, approach: string) => ({
  explanation,
  ...segmentOf(offered),
  campaignIds: offered.campaignIds.slice(0, 1),
  approach,
});

const segments: StructuredAnswerCase[] = [
  {
    id: 'segments-obeys',
    tool: 'audience-segments',
    family: 'gpt-4o',
    language: 'Polish',
    habit: 'obeys',
    answer: (offered) => JSON.stringify(segmentsAnswer(offered, explanationPl, approachPl)),
    expected: {
      tool: 'audience-segments',
      explanation: explanationPl,
      approach: approachPl,
      segment: segmentOf,
    },
  },
  {
    id: 'segments-json-fence',
    tool: 'audience-segments',
    family: 'mistral',
    language: 'Polish',
    habit: 'the JSON in a ```json fence',
    answer: (offered) => `\`\`\`json\n${json(segmentsAnswer(offered, explanationPl, approachPl))}\n\`\`\``,
    expected: {
      tool: 'audience-segments',
      explanation: explanationPl,
      approach: approachPl,
      segment: segmentOf,
    },
  },
  {
    id: 'segments-preamble',
    tool: 'audience-segments',
    family: 'llama-3',
    language: 'Polish',
    habit: 'a sentence before the JSON',
    answer: (offered) =>
      `Na podstawie danych z CRM proponuję następujące segmenty:\n\n${json(segmentsAnswer(offered, explanationPl, approachPl))}`,
    expected: {
      tool: 'audience-segments',
      explanation: explanationPl,
      approach: approachPl,
      segment: segmentOf,
    },
  },
  {
    id: 'segments-trailing-note',
    tool: 'audience-segments',
    family: 'claude',
    language: 'Polish',
    habit: 'JSON followed by „Daj znać…”, and a sentence beside the tool call',
    answer: (offered) =>
      `${json(segmentsAnswer(offered, explanationPl, approachPl))}\n\nDaj znać, jeśli chcesz zawęzić segment do jednej podbranży.`,
    preamble: 'Przeanalizuję dane z CRM i zaproponuję segmenty.',
    expected: {
      tool: 'audience-segments',
      explanation: explanationPl,
      approach: approachPl,
      segment: segmentOf,
    },
  },
  {
    id: 'segments-english-with-note',
    tool: 'audience-segments',
    family: 'llama-3',
    language: 'English',
    habit: 'in English despite the prompt, with "Let me know…" after the JSON',
    answer: (offered) =>
      `${JSON.stringify(segmentsAnswer(offered, explanationEn, approachEn))}\nLet me know if you need anything else!`,
    expected: {
      tool: 'audience-segments',
      explanation: explanationEn,
      approach: approachEn,
      segment: segmentOf,
    },
  },
  {
    id: 'segments-cut-at-max-tokens',
    tool: 'audience-segments',
    family: 'gpt-4o',
    language: 'Polish',
    habit: 'cut at max_tokens (finish_reason length)',
    answer: (offered) => JSON.stringify(segmentsAnswer(offered, explanationPl, approachPl)).slice(0, 180),
    cut: true,
    expected: 'incomplete',
  },
];

export const structuredAnswers: StructuredAnswerCase[] = [
  ...briefChat,
  ...targetAudience,
  ...recommendations,
  ...segments,
];

/** The case's answer text, for the values a request offers (only segments use them). */
export function answerText(
  answerCase: StructuredAnswerCase,
  offered: OfferedValues = { subIndustries: [], roles: [], titles: [], workAreas: [], campaignIds: [] },
): string {
  return typeof answerCase.answer === 'function' ? answerCase.answer(offered) : answerCase.answer;
}

/** The case as the test server sends it: the content or the tool call's arguments, as the request asked. */
export function replyFor(answerCase: StructuredAnswerCase, offered?: OfferedValues): ScriptedReply {
  const text = answerText(answerCase, offered);
  if (answerCase.asText) return { kind: 'text', text };
  return {
    kind: 'raw-json',
    text,
    chunkChars: 12,
    ...(answerCase.cut ? { finishReason: 'length' as const } : {}),
    ...(answerCase.preamble ? { preamble: answerCase.preamble } : {}),
  };
}
