import type { RecordedRequest, ScriptedReply } from './scripted-replies';
import { sampleFromSchema } from './structured-requests';
import { SEGMENTS_SCHEMA_NAME, segmentsReply } from './segment-replies';

/**
 * A stand-in for the brief creator's model, for trying GEM locally and for end-to-end runs that
 * script nothing: a rule-based assistant that reads GEM's own prompt (the brief as JSON, the
 * chat's language) and the user's last message, puts that message into the first required field
 * still empty, and asks for the next one; once all are filled it summarizes and asks to confirm.
 * It answers the brief creator's three structured requests by their schema names; any other
 * structured request gets an object made up from its schema.
 */

type Language = 'English' | 'Polish' | 'German';

const required = [
  'campaignName',
  'campaignType',
  'primaryObjective',
  'targetAudience',
  'keyMessages',
  'channels',
  'activityKPIs',
  'businessKPIs',
] as const;
type Field = (typeof required)[number];

const campaignTypes = ['Webinar', 'Report', 'Event', 'Social Media', 'Email', 'Content Marketing', 'Other'];
const listFields = new Set<Field>(['campaignType', 'channels', 'activityKPIs', 'businessKPIs']);

const questions: Record<Language, Record<Field, string>> = {
  English: {
    campaignName: 'What is the campaign called?',
    campaignType: `What type of campaign is it (${campaignTypes.join(', ')})?`,
    primaryObjective: 'What is its primary objective?',
    targetAudience: 'Who is the target audience?',
    keyMessages: 'What are the key messages?',
    channels: 'Which channels will you use?',
    activityKPIs: 'Which activity KPIs will you track (e.g. registrations)?',
    businessKPIs: 'And the business KPIs (e.g. qualified leads)?',
  },
  Polish: {
    campaignName: 'Jak nazywa się kampania?',
    campaignType: `Jaki to typ kampanii (${campaignTypes.join(', ')})?`,
    primaryObjective: 'Jaki jest jej główny cel?',
    targetAudience: 'Kto jest grupą docelową?',
    keyMessages: 'Jakie są kluczowe komunikaty?',
    channels: 'Z jakich kanałów skorzystamy?',
    activityKPIs: 'Jakie wskaźniki aktywności będziemy mierzyć (np. rejestracje)?',
    businessKPIs: 'A jakie wskaźniki biznesowe (np. kwalifikowane leady)?',
  },
  German: {
    campaignName: 'Wie heißt die Kampagne?',
    campaignType: `Um welche Art von Kampagne handelt es sich (${campaignTypes.join(', ')})?`,
    primaryObjective: 'Was ist ihr Hauptziel?',
    targetAudience: 'Wer ist die Zielgruppe?',
    keyMessages: 'Was sind die Kernbotschaften?',
    channels: 'Welche Kanäle nutzen wir?',
    activityKPIs: 'Welche Aktivitäts-KPIs messen wir (z. B. Anmeldungen)?',
    businessKPIs: 'Und welche Business-KPIs (z. B. qualifizierte Leads)?',
  },
};

const phrases: Record<Language, { noted: string; summary: string; confirm: string }> = {
  English: {
    noted: 'Thanks, noted.',
    summary: 'Here is the brief so far:',
    confirm: 'If it is right, click Accept brief.',
  },
  Polish: {
    noted: 'Dziękuję, zapisane.',
    summary: 'Oto brief:',
    confirm: 'Jeśli wszystko się zgadza, kliknij Accept brief.',
  },
  German: {
    noted: 'Danke, notiert.',
    summary: 'Hier ist das Briefing:',
    confirm: 'Wenn alles stimmt, klicken Sie auf Accept brief.',
  },
};

/** Every brief field, in the brief creator's order: a chat turn's answer names each one. */
export const briefFieldNames = [
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

/** A chat turn's structured answer as the brief creator asks for it: every field null (unchanged) unless given. */
export function briefChatTurn(
  standardAnswer: string,
  updates: Record<string, unknown> = {},
  isAwaitingConfirmation = false,
) {
  const briefUpdates = Object.fromEntries(briefFieldNames.map((field) => [field, updates[field] ?? null]));
  return { standardAnswer, briefUpdates, isAwaitingConfirmation };
}

function languageOf(system: string): Language {
  if (system.includes('po angielsku')) return 'English';
  if (system.includes('po niemiecku')) return 'German';
  return 'Polish';
}

/** The brief JSON in GEM's prompt, in its <brief> data block. */
function briefOf(system: string): Record<string, unknown> {
  const start = system.lastIndexOf('<brief>\n');
  const end = system.lastIndexOf('\n</brief>');
  if (start === -1 || end < start) return {};
  try {
    return JSON.parse(system.slice(start + '<brief>\n'.length, end)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

const isFilled = (value: unknown) =>
  Array.isArray(value) ? value.length > 0 : typeof value === 'string' && value.trim() !== '';

function valueFor(field: Field, text: string): unknown {
  if (field === 'campaignType') {
    const found = campaignTypes.filter((type) => text.toLowerCase().includes(type.toLowerCase()));
    return found.length > 0 ? found : ['Other'];
  }
  if (listFields.has(field)) {
    return text
      .split(/[,;\n]/)
      .map((item) => item.trim())
      .filter(Boolean);
  }
  return text.trim();
}

function chatTurn(request: RecordedRequest): unknown {
  const messages = request.body.messages ?? [];
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const language = languageOf(system);
  const brief = briefOf(system);
  const lastUser = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const updates: Record<string, unknown> = { ...briefChatTurn('').briefUpdates };
  const missing = required.filter((field) => !isFilled(brief[field]));
  const hasConversation = messages.some((m) => m.role === 'assistant');
  // The first message opens the chat; later ones answer the question asked before.
  const target = missing[0];
  if (target && lastUser.trim() !== '' && hasConversation) {
    updates[target] = valueFor(target, lastUser);
  }
  const date = /\b\d{4}-\d{2}-\d{2}\b/.exec(lastUser)?.[0];
  if (date) updates.eventDate = date;
  const after = missing.filter((field) => updates[field] === null);
  const words = phrases[language];
  if (after.length > 0) {
    const next = after.slice(0, 2).map((field) => questions[language][field]);
    // The page greets the user already: the first answer goes straight to the questions.
    const opening = hasConversation ? `${words.noted} ` : '';
    return {
      standardAnswer: `${opening}${next.join(' ')}`,
      briefUpdates: updates,
      isAwaitingConfirmation: false,
    };
  }
  const merged = { ...brief, ...Object.fromEntries(Object.entries(updates).filter(([, v]) => v !== null)) };
  const lines = required.map((field) => {
    const value = merged[field];
    return `- ${field}: ${Array.isArray(value) ? value.join(', ') : String(value ?? '')}`;
  });
  return {
    standardAnswer: [words.summary, ...lines, words.confirm].join('\n'),
    briefUpdates: updates,
    isAwaitingConfirmation: true,
  };
}

const targetAudience = {
  targetAudience:
    'CFOs and finance directors of mid-size companies in Poland who want faster, data-driven reporting.',
};

const recommendations = {
  recommendations: [
    'Promote the campaign on LinkedIn for three weeks, with a sponsored post each week aimed at finance leaders.',
    'Send an invitation e-mail four weeks ahead and two reminders, one week and one day before.',
    'Track registrations weekly and aim for a 40% attendance rate.',
    'Prepare a one-page summary of the key findings to send to every registrant afterwards.',
  ],
};

/** A structured answer for a request that asked for one. */
export function plausibleStructuredReply(request: RecordedRequest): ScriptedReply {
  switch (request.structured?.name) {
    case 'brief_chat_turn':
      return { kind: 'object', value: chatTurn(request) };
    case 'brief_target_audience':
      return { kind: 'object', value: targetAudience };
    case 'brief_recommendations':
      return { kind: 'object', value: recommendations };
    case SEGMENTS_SCHEMA_NAME:
      return { kind: 'object', value: segmentsReply(request) };
    default:
      return { kind: 'object', value: sampleFromSchema(request.structured?.schema) };
  }
}
