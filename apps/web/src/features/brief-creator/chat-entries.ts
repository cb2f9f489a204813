import {
  assistantContentOf,
  briefChatFailureTexts,
  type BriefLanguage,
  type BriefMessage,
  type BriefTurnKind,
} from '@gem/contracts/brief-creator';

/** One bubble of the chat as the page shows it. */
export type ChatEntry =
  | { id: string; role: 'user'; text: string }
  | {
      id: string;
      role: 'assistant';
      /** The answer; while `streaming`, what is written so far. */
      text: string;
      streaming?: boolean;
      /** 'Generate recommendations': shown as a list, each item can be added to the brief. */
      recommendations?: readonly string[];
      /** 'Generate target audience': the proposal, applied or kept beside the user's own text. */
      targetAudience?: string;
      /** 'Keep mine' was chosen for this proposal. */
      kept?: boolean;
      /** The turn failed: `text` is the spec's failure words, `detail` what to do about it. */
      failed?: boolean;
      detail?: string;
      /** What the turn was: a failed one's Retry asks for it again. */
      kind?: BriefTurnKind;
      /** The built-in stand-in wrote it, not an AI service (issue 27): the bubble says so. */
      demo?: boolean;
    };

export type AssistantEntry = Extract<ChatEntry, { role: 'assistant' }>;

/** Spec §4: the chat starts with the assistant's greeting, written here (not sent to the server). */
export const greetings: Record<BriefLanguage, string> = {
  English:
    "Hi! I'm your brief assistant. Tell me about the campaign you're planning — its name, what kind of campaign it is and what it should achieve — and I'll fill in the brief with you as we go.",
  Polish:
    'Cześć! Jestem Twoim asystentem briefu. Opowiedz mi o kampanii, którą planujesz — jej nazwie, rodzaju i celu — a razem uzupełnimy brief krok po kroku.',
  German:
    'Hallo! Ich bin Ihr Briefing-Assistent. Erzählen Sie mir von der geplanten Kampagne — Name, Art und Ziel — und wir füllen das Briefing gemeinsam Schritt für Schritt aus.',
};

/** The kind of turn a stored failure's words belong to (a message, when they are not the spec's). */
function kindOfFailure(message: string): BriefTurnKind {
  const kinds = Object.keys(briefChatFailureTexts) as BriefTurnKind[];
  return kinds.find((kind) => briefChatFailureTexts[kind] === message) ?? 'chat';
}

/**
 * Spec §4: a resumed session's messages without the system ones. An assistant message shows its
 * standard answer, its recommendations as a list, or, when its turn failed, the spec's words; one
 * the built-in stand-in wrote stays marked as a demo answer.
 */
export function entriesOfMessages(messages: readonly BriefMessage[]): ChatEntry[] {
  return [...messages]
    .sort((a, b) => a.order - b.order)
    .flatMap((message): ChatEntry[] => {
      if (message.role === 'system') return [];
      if (message.role === 'user') return [{ id: message.id, role: 'user', text: message.content }];
      const content = assistantContentOf(message.content);
      if (content.error) {
        const kind = kindOfFailure(content.error.message);
        return [{ id: message.id, role: 'assistant', text: briefChatFailureTexts[kind], failed: true, kind }];
      }
      return [
        {
          id: message.id,
          role: 'assistant',
          text: content.standardAnswer,
          ...(content.recommendations?.length ? { recommendations: content.recommendations } : {}),
          ...(content.generatedTargetAudience ? { targetAudience: content.generatedTargetAudience } : {}),
          ...(content.demo ? { demo: true } : {}),
        },
      ];
    });
}

/** Spec §2: a session's message count leaves out the system messages. */
export const visibleMessageCount = (messages: readonly BriefMessage[]) =>
  messages.filter((message) => message.role !== 'system').length;

/** The first 8 characters of an id, as the cards show it. */
export const shortId = (id: string) => id.slice(0, 8);
