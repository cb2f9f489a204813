import { z } from 'zod';

import { styleCheckSchema } from './brand-voice';
import { formatCount } from './format-number';
import {
  BRIEF_MESSAGE_MAX,
  briefDataSchema,
  briefLanguages,
  campaignTypes,
  partialBriefDataSchema,
  SERVICE_DEFAULT_LANGUAGE,
  type BriefData,
} from './brief-creator-data';
import { storableText, toStorableText } from './storable-text';

export * from './brief-creator-data';

/**
 * The brief creator (spec §2 Brief creator and Brief details page, §3 Brief data, Chat session,
 * Finished brief, Chat request and response, §4 Brief chat, §7 `api/brief/*`, §8, §9): an AI chat
 * that fills in a marketing brief, the user's unfinished sessions and their finished briefs.
 */

export const briefCreatorPaths = {
  /** POST a chat request; the whole chat response back (spec §7). */
  chat: '/api/brief/chat',
  /** POST a chat request; an NDJSON stream of BriefChatEvent lines back. */
  chatStream: '/api/brief/chat/stream',
  /**
   * GET the signed-in user's unfinished sessions, most recent first; POST starts a new session
   * from a finished brief of theirs ('Start from this brief').
   */
  chatSessions: '/api/brief/chat-sessions',
  /** GET one session of the signed-in user, open or finished (404 for anyone else's). */
  chatSession: '/api/brief/chat-sessions/:sessionId',
  /** PUT the brief as corrected by hand into an open session of the signed-in user. */
  chatSessionBrief: '/api/brief/chat-sessions/:sessionId/brief',
  /** GET the signed-in user's finished briefs, newest first (`?q=` by name, `?campaignType=`). */
  finishedBriefs: '/api/brief/finished-briefs',
  /** GET one finished brief of the signed-in user (404 for anyone else's); DELETE deletes it. */
  finishedBrief: '/api/brief/finished-briefs/:briefId',
  /** POST: a deleted finished brief back (Undo). */
  finishedBriefRestore: '/api/brief/finished-briefs/:briefId/restore',
} as const;

export const chatSessionPath = (sessionId: string) =>
  `/api/brief/chat-sessions/${encodeURIComponent(sessionId)}`;
export const chatSessionBriefPath = (sessionId: string) => `${chatSessionPath(sessionId)}/brief`;
export const finishedBriefPath = (briefId: string) =>
  `/api/brief/finished-briefs/${encodeURIComponent(briefId)}`;
export const finishedBriefRestorePath = (briefId: string) => `${finishedBriefPath(briefId)}/restore`;

export const chatRequestSchema = z
  .object({
    message: storableText('The message')
      .max(BRIEF_MESSAGE_MAX, {
        error: `The message is too long: at most ${formatCount(BRIEF_MESSAGE_MAX)} characters.`,
      })
      .default(''),
    /** null (or absent) starts a new chat. */
    sessionId: z.uuid({ error: 'The session id is not valid.' }).nullable().default(null),
    /** 'Accept brief': the session becomes a finished brief. */
    confirmJsonResponse: z.boolean().default(false),
    /** 'Generate target audience': written from the brief data, it replaces targetAudience. */
    generateTargetAudience: z.boolean().default(false),
    /** 'Generate recommendations': concrete suggestions for this brief. */
    generateRecommendations: z.boolean().default(false),
    /**
     * Retry after a failed answer: the session's last message, stored already, is answered
     * again; nothing new is stored for it (issue 27).
     */
    retryLastMessage: z.boolean().default(false),
    language: z.enum(briefLanguages).default(SERVICE_DEFAULT_LANGUAGE),
    /** The brief as the user sees it, with their corrections by hand; the chat works from it. */
    currentBriefData: partialBriefDataSchema.nullable().optional(),
  })
  .superRefine((request, ctx) => {
    const actions = [
      request.confirmJsonResponse,
      request.generateTargetAudience,
      request.generateRecommendations,
    ].filter(Boolean).length;
    if (actions > 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirmJsonResponse'],
        message: 'Ask for one thing at a time: accept, target audience or recommendations.',
      });
    }
    if (actions === 1 && request.sessionId === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['sessionId'],
        message: 'Start the chat first: this needs a session.',
      });
    }
    if (request.retryLastMessage) {
      if (actions > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['retryLastMessage'],
          message: 'A retry answers the last message again: ask for nothing else with it.',
        });
      }
      if (request.sessionId === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['sessionId'],
          message: 'Start the chat first: this needs a session.',
        });
      }
      if (request.message.trim() !== '') {
        ctx.addIssue({
          code: 'custom',
          path: ['message'],
          message: 'A retry sends no new message: the last one is answered again.',
        });
      }
      return;
    }
    if (actions === 0 && request.message.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'The message is empty.' });
    }
  });
export type ChatRequest = z.input<typeof chatRequestSchema>;
export type ParsedChatRequest = z.output<typeof chatRequestSchema>;

/** How a failed turn is told (spec §8): the screen's English words, with the API's code. */
export const chatFailureSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** The service asked for a wait: the page counts down before a retry. */
  retryAfterSeconds: z.number().int().positive().optional(),
});
export type ChatFailure = z.infer<typeof chatFailureSchema>;

export const chatResponseSchema = z.object({
  /** The assistant's answer; on a failed turn, the service layer's apology (Polish). */
  response: z.string(),
  sessionId: z.uuid(),
  /** The brief as it stands after this turn. */
  proposedBriefData: briefDataSchema.nullable(),
  /** The assistant summarized the brief and asks the user to confirm it. */
  isAwaitingConfirmation: z.boolean(),
  /**
   * 'Generate target audience': the proposed target audience. It is in proposedBriefData only
   * when the field was empty; otherwise the user applies it or keeps their own (issue 27).
   */
  generatedTargetAudience: z.string().nullable(),
  /** 'Generate recommendations': the suggestions; otherwise empty. */
  recommendations: z.array(z.string()),
  /** 'Accept brief': the finished brief's id. */
  finishedBriefId: z.uuid().nullable().optional(),
  /** Set when the turn failed: the message stays in the session, and can be sent again. */
  error: chatFailureSchema.optional(),
  /**
   * The built-in stand-in wrote this answer, not an AI service (issue 27): the page marks it
   * with `DEMO_ANSWER_TEXT`.
   */
  demo: z.boolean().optional(),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;

/** One line of the NDJSON stream of `POST /api/brief/chat/stream`. */
export const briefChatEventSchema = z.discriminatedUnion('type', [
  /** First: the session the turn belongs to (a new chat's id is known from here on). */
  z.object({ type: z.literal('session'), sessionId: z.uuid() }),
  /** More of the assistant's answer as it is written (to append). */
  z.object({ type: z.literal('delta'), text: z.string() }),
  /** The answer is written again (a repair attempt): the page clears what it showed. */
  z.object({ type: z.literal('restart') }),
  /** The whole chat response: it replaces whatever was streamed. */
  z.object({
    type: z.literal('final'),
    response: chatResponseSchema,
    /** The style check of the assistant's answer against the brand profile in force (brand-voice.ts). */
    style: styleCheckSchema.optional(),
    /**
     * The style check of the brief after the turn, as `briefStyleText` (brief-creator-style.ts)
     * writes it; absent while the brief has no words in it.
     */
    briefStyle: styleCheckSchema.optional(),
  }),
  /** The turn failed after the stream began; the message stays in the session. */
  z.object({ type: z.literal('error'), sessionId: z.uuid().nullable(), error: chatFailureSchema }),
]);
export type BriefChatEvent = z.infer<typeof briefChatEventSchema>;

export const briefMessageRoles = ['system', 'user', 'assistant'] as const;
export type BriefMessageRole = (typeof briefMessageRoles)[number];

/**
 * Spec §3 Chat session message. A user message's content is its text; an assistant message's
 * content is JSON carrying `standardAnswer` (see `assistantContentSchema`); a system message's
 * content is the brief data as JSON, as it stood from that point on.
 */
export const briefMessageSchema = z.object({
  id: z.uuid(),
  role: z.enum(briefMessageRoles),
  content: z.string(),
  timestamp: z.iso.datetime({ offset: true }),
  /** The message's place in its session, from 1. */
  order: z.number().int().positive(),
});
export type BriefMessage = z.infer<typeof briefMessageSchema>;

/** What an assistant message's content holds. */
export const assistantContentSchema = z.object({
  standardAnswer: z.string(),
  isAwaitingConfirmation: z.boolean().optional(),
  recommendations: z.array(z.string()).optional(),
  generatedTargetAudience: z.string().optional(),
  /**
   * Whether the generated target audience went into the brief: only when the field was empty.
   * Otherwise it is a proposal beside the user's own text (issue 27).
   */
  targetAudienceApplied: z.boolean().optional(),
  /** The turn failed: standardAnswer is the service layer's apology; the screen shows `error`'s words. */
  error: chatFailureSchema.optional(),
  /** The built-in stand-in wrote it (issue 27): a resumed chat still marks it as a demo answer. */
  demo: z.boolean().optional(),
});
export type AssistantContent = z.infer<typeof assistantContentSchema>;

export const chatSessionSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  lastActivityAt: z.iso.datetime({ offset: true }),
  messages: z.array(briefMessageSchema),
});
export type ChatSession = z.infer<typeof chatSessionSchema>;

/** At most this many unfinished sessions are listed, most recent first. */
export const CHAT_SESSIONS_LISTED = 50;

export const chatSessionsResponseSchema = z.object({
  chatSessions: z.array(chatSessionSchema).max(CHAT_SESSIONS_LISTED),
});
export type ChatSessionsResponse = z.infer<typeof chatSessionsResponseSchema>;

/** `GET /api/brief/chat-sessions/:sessionId`: a session, and whether it ended as a finished brief. */
export const chatSessionDetailsSchema = chatSessionSchema.extend({
  /** When its brief was accepted; null while it is open. A finished session takes no turns. */
  finishedAt: z.iso.datetime({ offset: true }).nullable(),
  /** The finished brief it became; null while open, or once that brief was deleted. */
  finishedBriefId: z.uuid().nullable(),
  /** That brief's title. */
  finishedBriefTitle: z.string().nullable(),
});
export type ChatSessionDetails = z.infer<typeof chatSessionDetailsSchema>;

/** `POST /api/brief/chat-sessions`: 'Start from this brief', a new session seeded with its data. */
export const startChatSessionRequestSchema = z.object({
  fromBriefId: z.uuid({ error: 'The brief id is not valid.' }),
});
export type StartChatSessionRequest = z.infer<typeof startChatSessionRequestSchema>;

/** `PUT /api/brief/chat-sessions/:sessionId/brief`: the brief as the user corrected it by hand. */
export const saveSessionBriefRequestSchema = z.object({ briefData: briefDataSchema });
export type SaveSessionBriefRequest = z.input<typeof saveSessionBriefRequestSchema>;
export const saveSessionBriefResponseSchema = z.object({
  /** False when the session held this brief already (nothing was stored). */
  changed: z.boolean(),
});
export type SaveSessionBriefResponse = z.infer<typeof saveSessionBriefResponseSchema>;

export const finishedBriefSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  messages: z.array(briefMessageSchema),
  /** The brief data as JSON text (spec §3). */
  briefDataJson: z.string(),
  /** The session the brief was accepted in. */
  sessionId: z.uuid(),
});
export type FinishedBrief = z.infer<typeof finishedBriefSchema>;

export const finishedBriefsResponseSchema = z.object({ briefs: z.array(finishedBriefSchema) });
export type FinishedBriefsResponse = z.infer<typeof finishedBriefsResponseSchema>;

export const FINISHED_BRIEF_SEARCH_MAX = 200;

/** `GET /api/brief/finished-briefs`: Finished Briefs searched by name and filtered by campaign type. */
export const finishedBriefsQuerySchema = z.object({
  /** Part of the brief's name; case and accents do not matter. */
  q: z
    .string()
    .trim()
    .max(FINISHED_BRIEF_SEARCH_MAX, {
      error: `The search is too long: at most ${FINISHED_BRIEF_SEARCH_MAX} characters.`,
    })
    .optional(),
  campaignType: z.enum(campaignTypes, { error: 'Choose a campaign type from the list.' }).optional(),
});
export type FinishedBriefsQuery = z.infer<typeof finishedBriefsQuerySchema>;

/** `DELETE /api/brief/finished-briefs/:briefId`: the brief is gone from the lists until restored. */
export const deletedFinishedBriefSchema = z.object({
  id: z.uuid(),
  deletedAt: z.iso.datetime({ offset: true }),
});
export type DeletedFinishedBrief = z.infer<typeof deletedFinishedBriefSchema>;

/**
 * The brief data a system message carries, or null when it holds none that is valid. Text that
 * could not be stored as it is (a lone half of an emoji, as a cut inside one left it before cuts
 * kept characters whole) is replaced by U+FFFD, as in every stored answer, rather than losing the
 * whole brief.
 */
export function briefDataOfSystemMessage(content: string): BriefData | null {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return null;
  }
  const parsed = briefDataSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const repaired = briefDataSchema.safeParse(
    JSON.parse(content, (_key, value: unknown) =>
      typeof value === 'string' ? toStorableText(value) : value,
    ),
  );
  return repaired.success ? repaired.data : null;
}

/** An assistant message's content, or its raw text as the answer when it is not GEM's JSON. */
export function assistantContentOf(content: string): AssistantContent {
  try {
    const parsed = assistantContentSchema.safeParse(JSON.parse(content));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: shown as it is.
  }
  return { standardAnswer: content };
}

/**
 * Spec §4: resuming a session takes the latest brief data from the most recent system message;
 * null when there is none. Throws when that message's brief data cannot be read (spec §8:
 * 'Error fetching brief data from session messages').
 */
export function latestBriefData(messages: readonly BriefMessage[]): BriefData | null {
  const latest = messages.filter((m) => m.role === 'system').sort((a, b) => b.order - a.order)[0];
  if (!latest) return null;
  const data = briefDataOfSystemMessage(latest.content);
  if (!data) throw new Error('The brief data of the session could not be read.');
  return data;
}

/** Spec §8: what the screen says when a turn fails, per kind of turn. */
export const briefChatFailureTexts = {
  chat: 'Sorry, an error occurred while processing the message. Please try again.',
  targetAudience: 'Sorry, an error occurred while generating the target audience. Please try again.',
  recommendations: 'Sorry, an error occurred while generating recommendations. Please try again.',
  confirmation: 'Sorry, an error occurred while confirming the brief. Please try again.',
} as const;
export type BriefTurnKind = keyof typeof briefChatFailureTexts;

/** Spec §8: the toasts of the brief calls. */
export const briefToastTexts = {
  sessions: 'Error fetching chat sessions',
  finishedBriefs: 'Error fetching finished briefs',
  finishedBrief: 'Error fetching finished brief details',
  sendMessage: 'Error sending chat message',
  sessionBriefData: 'Error fetching brief data from session messages',
} as const;

/** The kind of turn a request asks for. */
export function turnKindOf(request: ParsedChatRequest): BriefTurnKind {
  if (request.confirmJsonResponse) return 'confirmation';
  if (request.generateTargetAudience) return 'targetAudience';
  if (request.generateRecommendations) return 'recommendations';
  return 'chat';
}
