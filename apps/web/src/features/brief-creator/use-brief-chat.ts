import {
  briefChatFailureTexts,
  briefToastTexts,
  emptyBriefData,
  latestBriefData,
  SCREEN_DEFAULT_LANGUAGE,
  type BriefData,
  type BriefField,
  type BriefLanguage,
  type BriefTurnKind,
  type ChatRequest,
  type ChatSession,
  type ChatSessionsResponse,
} from '@gem/contracts/brief-creator';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

import { aiStatusQueryOptions } from '@/lib/ai/get-ai-status';
import {
  describeGenerationError,
  formatWait,
  tooManyRequestsText,
  type GenerationProblem,
} from '@/lib/ai/generation-errors';
import { GenerationFailedError } from '@/lib/ai/generation-stream';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { chatSessionsQueryOptions } from './api/get-chat-sessions';
import { finishedBriefsQueryOptions } from './api/get-finished-briefs';
import { sendChatMessage } from './api/send-chat-message';
import { entriesOfMessages, type AssistantEntry, type ChatEntry } from './chat-entries';

/** Spec §3: what a finished brief is called when the campaign has no name yet. */
export const UNTITLED_BRIEF = 'Untitled brief';

/** A brief accepted in this chat: the success message links to it. */
export type AcceptedBrief = { id: string; title: string };

let lastLocalId = 0;
const localId = () => `local-${++lastLocalId}`;

/** What the answer bubble says under a failure: the reason, and when to try again. */
function detailOf(problem: GenerationProblem, now = Date.now()): string | undefined {
  if (problem.retryAt === undefined) return problem.detail;
  return `${problem.detail ?? tooManyRequestsText} Wait ${formatWait((problem.retryAt - now) / 1000)}, then try again.`;
}

/** A turn refused before its stream began: nothing was stored, so the text goes back in the box. */
function describeRefusal(error: unknown, kind: BriefTurnKind): GenerationProblem {
  const failure = kind === 'chat' ? 'Your message was not sent.' : briefChatFailureTexts[kind];
  if (error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found')) {
    // The server's words say which: another tab is answering, or the brief was accepted already.
    return { message: failure, detail: error.message };
  }
  return describeGenerationError(error, { failure, empty: failure });
}

/**
 * The brief chat (spec §4 Brief chat, §3 Session state): the session, the language, the bubbles,
 * the brief as shown (with the user's corrections), the message box, and one turn at a time.
 * A turn streams its answer into the last bubble; the server keeps the user's message from the
 * moment it sends `session`, so only a turn refused before that gives the text back.
 */
export function useBriefChat() {
  const queryClient = useQueryClient();
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [language, setLanguage] = useState<BriefLanguage>(SCREEN_DEFAULT_LANGUAGE);
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [brief, setBrief] = useState<BriefData>(emptyBriefData);
  const [input, setInput] = useState('');
  const [busyKind, setBusyKind] = useState<BriefTurnKind | null>(null);
  const [problem, setProblem] = useState<GenerationProblem | null>(null);
  const [accepted, setAccepted] = useState<AcceptedBrief | null>(null);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  /** Drops the turn in flight (its answer is still stored on the server). */
  function stopCurrent() {
    const running = current.current;
    current.current = null;
    running?.abort();
    setBusyKind(null);
  }

  async function run(kind: BriefTurnKind, message: string) {
    if (current.current) return;
    if (kind === 'chat' && message.trim() === '') return;
    if (kind !== 'chat' && sessionId === null) return;

    const own = new AbortController();
    current.current = own;
    const isCurrent = () => current.current === own;
    const userId = kind === 'chat' ? localId() : null;
    const answerId = localId();
    setBusyKind(kind);
    setProblem(null);
    setAccepted(null);
    setEntries((list) => [
      ...list,
      ...(userId ? [{ id: userId, role: 'user' as const, text: message }] : []),
      { id: answerId, role: 'assistant', text: '', streaming: true },
    ]);
    if (kind === 'chat') setInput('');

    const update = (change: (entry: AssistantEntry) => AssistantEntry) =>
      setEntries((list) =>
        list.map((entry) => (entry.id === answerId && entry.role === 'assistant' ? change(entry) : entry)),
      );
    const fail = (detail: string | undefined) =>
      update((entry) => ({
        id: entry.id,
        role: 'assistant',
        text: briefChatFailureTexts[kind],
        failed: true,
        ...(detail ? { detail } : {}),
      }));

    const request: ChatRequest = {
      message: kind === 'chat' ? message : '',
      sessionId,
      confirmJsonResponse: kind === 'confirmation',
      generateTargetAudience: kind === 'targetAudience',
      generateRecommendations: kind === 'recommendations',
      language,
      currentBriefData: brief,
    };
    let stored = false;
    try {
      const outcome = await sendChatMessage(request, {
        signal: own.signal,
        onEvent: (event) => {
          if (!isCurrent()) return;
          if (event.type === 'session') {
            // Kept at once: the message is stored in this session even if the turn then fails.
            stored = true;
            setSessionId(event.sessionId);
          } else if (event.type === 'delta') {
            update((entry) => ({ ...entry, text: entry.text + event.text }));
          } else if (event.type === 'restart') {
            update((entry) => ({ ...entry, text: '' }));
          }
        },
      });
      if (!isCurrent()) return;

      if (!outcome.ok) {
        if (outcome.sessionId) setSessionId(outcome.sessionId);
        const described = describeGenerationError(new GenerationFailedError(outcome.error), {
          failure: briefChatFailureTexts[kind],
          empty: briefChatFailureTexts[kind],
        });
        if (described.notConfigured) markNotConfigured();
        fail(detailOf(described));
        return;
      }

      const { response } = outcome;
      if (response.finishedBriefId) {
        const title = (response.proposedBriefData ?? brief).campaignName.trim() || UNTITLED_BRIEF;
        setAccepted({ id: response.finishedBriefId, title });
        // Spec §4: the session became a finished brief; a fresh chat starts.
        setSessionId(null);
        setEntries([]);
        setBrief(emptyBriefData());
        queryClient.setQueryData(
          chatSessionsQueryOptions.queryKey,
          (old: ChatSessionsResponse | undefined) =>
            old ? { chatSessions: old.chatSessions.filter((s) => s.id !== response.sessionId) } : old,
        );
        void queryClient.invalidateQueries({ queryKey: finishedBriefsQueryOptions.queryKey });
        return;
      }

      setSessionId(response.sessionId);
      const generated = response.generatedTargetAudience;
      if (response.proposedBriefData || generated !== null) {
        const next = response.proposedBriefData ?? brief;
        setBrief(generated === null ? next : { ...next, targetAudience: generated });
      }
      update((entry) => ({
        id: entry.id,
        role: 'assistant',
        text: response.response,
        ...(response.recommendations.length > 0 ? { recommendations: response.recommendations } : {}),
      }));
    } catch (error) {
      if (!isCurrent() || own.signal.aborted) return;
      if (stored) {
        fail('The connection broke before the answer was complete. Send your message again.');
      } else {
        // Refused before anything was stored: take the bubbles back and the text back into the box.
        setEntries((list) => list.filter((entry) => entry.id !== answerId && entry.id !== userId));
        if (kind === 'chat') setInput((typed) => (typed === '' ? message : `${message}\n${typed}`));
        const described = describeRefusal(error, kind);
        if (described.notConfigured) markNotConfigured();
        setProblem(described);
      }
      toast.error(briefToastTexts.sendMessage);
    } finally {
      if (isCurrent()) {
        current.current = null;
        setBusyKind(null);
      }
      void queryClient.invalidateQueries({ queryKey: chatSessionsQueryOptions.queryKey });
    }
  }

  function markNotConfigured() {
    queryClient.setQueryData(aiStatusQueryOptions.queryKey, {
      configured: false,
      provider: null,
      model: null,
    });
  }

  return {
    sessionId,
    language,
    setLanguage,
    entries,
    brief,
    input,
    setInput,
    busyKind,
    isBusy: busyKind !== null,
    problem,
    accepted,
    dismissAccepted: () => setAccepted(null),
    /** Spec §4: ignored when the text is blank or the chat is busy. */
    send: () => void run('chat', input),
    generateTargetAudience: () => void run('targetAudience', ''),
    generateRecommendations: () => void run('recommendations', ''),
    acceptBrief: () => void run('confirmation', ''),
    /** A correction by hand; the next turn sends the brief as shown. */
    setField: <F extends BriefField>(field: F, value: BriefData[F]) =>
      setBrief((data) => ({ ...data, [field]: value })),
    /**
     * Spec §4: a session's messages without the system ones, and the brief data of its most
     * recent system message (§8: a toast when that cannot be read). The language stays.
     */
    resume(session: ChatSession) {
      stopCurrent();
      let data = emptyBriefData();
      try {
        data = latestBriefData(session.messages) ?? data;
      } catch {
        toast.error(briefToastTexts.sessionBriefData);
      }
      setSessionId(session.id);
      setEntries(entriesOfMessages(session.messages));
      setBrief(data);
      setProblem(null);
      setAccepted(null);
    },
    /** Leaves the session (it stays in Brief Sessions) for an empty brief. */
    newChat() {
      stopCurrent();
      setSessionId(null);
      setEntries([]);
      setBrief(emptyBriefData());
      setProblem(null);
    },
  };
}

export type BriefChat = ReturnType<typeof useBriefChat>;
