import {
  BRIEF_LIST_MAX_ITEMS,
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
  type ChatSessionDetails,
  type ChatSessionsResponse,
} from '@gem/contracts/brief-creator';
import type { StyleCheck } from '@gem/contracts/brand-voice';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

import { refreshAiAllowance } from '@/lib/ai/get-ai-allowance';
import { aiStatusQueryOptions } from '@/lib/ai/get-ai-status';
import type { GenerationProblem } from '@/lib/ai/generation-errors';
import { ApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { getChatSession } from './api/get-chat-session';
import { chatSessionsQueryOptions } from './api/get-chat-sessions';
import { finishedBriefListsKey } from './api/get-finished-briefs';
import { saveSessionBrief } from './api/save-session-brief';
import { sendChatMessage } from './api/send-chat-message';
import { entriesOfMessages, type AssistantEntry, type ChatEntry } from './chat-entries';
import { describeFailedTurn, describeOpenFailure, describeRefusal, detailOf } from './chat-problems';

/** Spec §3: what a finished brief is called when the campaign has no name yet. */
export const UNTITLED_BRIEF = 'Untitled brief';

/** A brief accepted in this chat, or the one an opened session became: the notice links to it. */
export type AcceptedBrief = { id: string | null; title: string; earlier: boolean };

/** How long a correction typed by hand waits for the next keystroke before it is saved. */
const SAVE_DELAY_MS = 700;

let lastLocalId = 0;
const localId = () => `local-${++lastLocalId}`;

type SessionEvents = {
  /** A new chat's first message got its session: the page names it in the URL. */
  onSessionStarted?: (sessionId: string) => void;
  /** The session became a finished brief; a new chat starts. */
  onAccepted?: () => void;
};

/**
 * The brief chat (spec §4 Brief chat, §3 Session state): the session, the language, the bubbles,
 * the brief as shown (with the user's corrections, saved to the session as they are made), the
 * message box, and one turn at a time. A turn streams its answer into the last bubble; the
 * server keeps the user's message from the moment it sends `session`, so only a turn refused
 * before that gives the text back; a turn that failed after it offers Retry.
 */
export function useBriefChat({ onSessionStarted, onAccepted }: SessionEvents = {}) {
  const queryClient = useQueryClient();
  const [sessionId, setSessionIdState] = useState<string | null>(null);
  const [language, setLanguage] = useState<BriefLanguage>(SCREEN_DEFAULT_LANGUAGE);
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [brief, setBriefState] = useState<BriefData>(emptyBriefData);
  /** The style check of the brief that came with the last turn's final event (issue 31). */
  const [briefStyle, setBriefStyle] = useState<StyleCheck | null>(null);
  const [input, setInput] = useState('');
  const [busyKind, setBusyKind] = useState<BriefTurnKind | null>(null);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<GenerationProblem | null>(null);
  const [accepted, setAccepted] = useState<AcceptedBrief | null>(null);
  const current = useRef<AbortController | null>(null);
  // Read by callbacks and the page's URL effect between renders.
  const sessionRef = useRef<string | null>(null);
  const briefRef = useRef<BriefData>(brief);
  const events = useRef<SessionEvents>({});
  events.current = { onSessionStarted, onAccepted };
  const pendingSave = useRef<{ sessionId: string; brief: BriefData } | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  function setSessionId(id: string | null) {
    sessionRef.current = id;
    setSessionIdState(id);
  }

  /** A brief from elsewhere comes with its style check, or none; a correction keeps the last one. */
  function setBrief(next: BriefData, style: StyleCheck | null | 'keep' = null) {
    briefRef.current = next;
    setBriefState(next);
    if (style !== 'keep') setBriefStyle(style);
  }

  /** Saves the correction waiting to be saved, now. */
  function flushSave() {
    clearTimeout(saveTimer.current);
    const pending = pendingSave.current;
    pendingSave.current = null;
    if (!pending) return;
    saveSessionBrief(pending.sessionId, pending.brief).catch((error: unknown) => {
      // The next message carries the brief as shown, so nothing is lost while the page is open.
      toast.error(
        error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found')
          ? error.message
          : 'Your changes to the brief could not be saved yet. They go with your next message.',
      );
    });
  }

  /** A correction by hand: shown at once, saved to the session (typing waits for a pause). */
  function correctBrief(next: BriefData, when: 'now' | 'after-typing') {
    setBrief(next, 'keep');
    const id = sessionRef.current;
    // Without a session yet, the brief goes with the first message.
    if (!id) return;
    pendingSave.current = { sessionId: id, brief: next };
    clearTimeout(saveTimer.current);
    if (when === 'now') flushSave();
    else saveTimer.current = setTimeout(flushSave, SAVE_DELAY_MS);
  }

  useEffect(() => {
    // A reload or a closed tab still saves what was typed (as far as the browser lets it).
    window.addEventListener('pagehide', flushSave);
    return () => {
      window.removeEventListener('pagehide', flushSave);
      flushSave();
      current.current?.abort();
    };
  }, []);

  /** Drops the turn in flight (its answer is still stored on the server). */
  function stopCurrent() {
    const running = current.current;
    current.current = null;
    running?.abort();
    setBusyKind(null);
  }

  async function run(kind: BriefTurnKind, message: string, retryOf?: AssistantEntry) {
    if (current.current || loading) return;
    const retry = retryOf !== undefined && kind === 'chat';
    if (kind === 'chat' && !retry && message.trim() === '') return;
    if ((kind !== 'chat' || retry) && sessionRef.current === null) return;
    const turnSession = sessionRef.current;
    // The turn stores the brief as shown: a save still waiting is not needed.
    if (pendingSave.current?.sessionId === turnSession) {
      clearTimeout(saveTimer.current);
      pendingSave.current = null;
    }

    const own = new AbortController();
    current.current = own;
    const isCurrent = () => current.current === own;
    const userId = kind === 'chat' && !retry ? localId() : null;
    const answerId = localId();
    setBusyKind(kind);
    setProblem(null);
    setAccepted(null);
    setEntries((list) => [
      ...list.filter((entry) => entry !== retryOf),
      ...(userId ? [{ id: userId, role: 'user' as const, text: message }] : []),
      { id: answerId, role: 'assistant', text: '', streaming: true, kind },
    ]);
    if (userId) setInput('');

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
        kind,
        ...(detail ? { detail } : {}),
      }));

    const request: ChatRequest = {
      message: userId ? message : '',
      sessionId: turnSession,
      confirmJsonResponse: kind === 'confirmation',
      generateTargetAudience: kind === 'targetAudience',
      generateRecommendations: kind === 'recommendations',
      retryLastMessage: retry,
      language,
      currentBriefData: briefRef.current,
    };
    let stored = false;
    let checked: StyleCheck | null = null;
    try {
      const outcome = await sendChatMessage(request, {
        signal: own.signal,
        onEvent: (event) => {
          if (!isCurrent()) return;
          if (event.type === 'session') {
            // Kept at once: the message is stored in this session even if the turn then fails.
            stored = true;
            if (sessionRef.current !== event.sessionId) {
              setSessionId(event.sessionId);
              events.current.onSessionStarted?.(event.sessionId);
            }
          } else if (event.type === 'final') {
            checked = event.briefStyle ?? null;
          } else if (event.type === 'delta') {
            update((entry) => ({ ...entry, text: entry.text + event.text }));
          } else if (event.type === 'restart') {
            update((entry) => ({ ...entry, text: '' }));
          }
        },
      });
      if (!isCurrent()) return;

      if (!outcome.ok) {
        if (outcome.sessionId && sessionRef.current !== outcome.sessionId) {
          setSessionId(outcome.sessionId);
          events.current.onSessionStarted?.(outcome.sessionId);
        }
        const described = describeFailedTurn(outcome.error, kind);
        if (described.notConfigured) markNotConfigured();
        fail(detailOf(described));
        return;
      }

      const { response } = outcome;
      if (response.finishedBriefId) {
        const title = (response.proposedBriefData ?? briefRef.current).campaignName.trim() || UNTITLED_BRIEF;
        // Spec §4: the session became a finished brief; a fresh chat starts.
        setSessionId(null);
        setEntries([]);
        setBrief(emptyBriefData());
        setAccepted({ id: response.finishedBriefId, title, earlier: false });
        queryClient.setQueryData(
          chatSessionsQueryOptions.queryKey,
          (old: ChatSessionsResponse | undefined) =>
            old ? { chatSessions: old.chatSessions.filter((s) => s.id !== response.sessionId) } : old,
        );
        void queryClient.invalidateQueries({ queryKey: finishedBriefListsKey });
        events.current.onAccepted?.();
        return;
      }

      // The server checked the brief as it stands after the turn: the proposal, else the one sent.
      setBrief(response.proposedBriefData ?? briefRef.current, checked);
      update((entry) => ({
        id: entry.id,
        role: 'assistant',
        kind,
        text: response.response,
        ...(response.recommendations.length > 0 ? { recommendations: response.recommendations } : {}),
        ...(response.generatedTargetAudience !== null
          ? { targetAudience: response.generatedTargetAudience }
          : {}),
        ...(response.demo ? { demo: true } : {}),
      }));
    } catch (error) {
      if (!isCurrent() || own.signal.aborted) return;
      if (stored) {
        fail('The connection broke before the answer was complete. Try again.');
      } else {
        // Refused before anything was stored: take the bubbles back and the text back into the box.
        setEntries((list) => [
          ...list.filter((entry) => entry.id !== answerId && entry.id !== userId),
          ...(retryOf ? [retryOf] : []),
        ]);
        if (userId) setInput((typed) => (typed === '' ? message : `${message}\n${typed}`));
        const described = describeRefusal(error, kind, retry);
        if (described.notConfigured) markNotConfigured();
        setProblem(described);
        if (retry && error instanceof ApiError && error.code === 'conflict' && turnSession) {
          // Answered meanwhile (the connection broke after the answer was stored): show what is stored.
          void open(turnSession);
        }
      }
      toast.error(briefToastTexts.sendMessage);
    } finally {
      if (isCurrent()) {
        current.current = null;
        setBusyKind(null);
      }
      void queryClient.invalidateQueries({ queryKey: chatSessionsQueryOptions.queryKey });
      refreshAiAllowance(queryClient);
    }
  }

  function markNotConfigured() {
    queryClient.setQueryData(aiStatusQueryOptions.queryKey, {
      configured: false,
      provider: null,
      model: null,
    });
  }

  /**
   * Spec §4: a session's messages without the system ones, and the brief data of its most
   * recent system message (§8: a toast when that cannot be read). The language stays.
   */
  function show(session: ChatSession) {
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
  }

  /** Leaves what is open: a save still waiting goes now, a turn in flight stops. */
  function leave() {
    flushSave();
    stopCurrent();
  }

  /**
   * Opens a session by id (a link, Back, a reload): its messages and brief, or, for one whose
   * brief was accepted, a new chat that says where that brief is.
   */
  async function open(id: string, preloaded?: ChatSessionDetails) {
    leave();
    setSessionId(id);
    setEntries([]);
    setBrief(emptyBriefData());
    setProblem(null);
    setAccepted(null);
    setLoading(true);
    let details: ChatSessionDetails;
    try {
      details = preloaded?.id === id ? preloaded : await getChatSession(id);
    } catch (error) {
      if (sessionRef.current !== id) return;
      setLoading(false);
      setSessionId(null);
      setProblem(describeOpenFailure(error));
      return;
    }
    if (sessionRef.current !== id) return;
    setLoading(false);
    if (details.finishedAt) {
      setSessionId(null);
      setAccepted({
        id: details.finishedBriefId,
        title: details.finishedBriefTitle ?? UNTITLED_BRIEF,
        earlier: true,
      });
      return;
    }
    show(details);
  }

  return {
    sessionId,
    /** The session as of now, for effects that run between renders. */
    currentSessionId: () => sessionRef.current,
    language,
    setLanguage,
    entries,
    brief,
    /** The style check of the brief that came with the last turn (offsets into briefStyleText). */
    briefStyle,
    /** The brief changed by the style check's Apply, Apply all or Undo (saved at once). */
    reviseBrief(next: BriefData) {
      correctBrief(next, 'now');
    },
    input,
    setInput,
    busyKind,
    isBusy: busyKind !== null,
    loading,
    problem,
    accepted,
    dismissAccepted: () => setAccepted(null),
    /** Spec §4: ignored when the text is blank or the chat is busy. */
    send: () => void run('chat', input),
    generateTargetAudience: () => void run('targetAudience', ''),
    generateRecommendations: () => void run('recommendations', ''),
    acceptBrief: () => void run('confirmation', ''),
    /** Asks again for the failed turn of `entry`: a message's answer, or the action. */
    retry(entry: AssistantEntry) {
      if (!entry.failed) return;
      void run(entry.kind ?? 'chat', '', entry);
    },
    /** A correction by hand; saved to the session after a pause in typing. */
    setField<F extends BriefField>(field: F, value: BriefData[F]) {
      correctBrief({ ...briefRef.current, [field]: value }, 'after-typing');
    },
    /** 'Apply': the proposed target audience replaces the field (saved at once). */
    applyTargetAudience(text: string) {
      correctBrief({ ...briefRef.current, targetAudience: text }, 'now');
    },
    /** 'Keep mine': the proposal stays in the chat, the field as it is. */
    keepTargetAudience(entryId: string) {
      setEntries((list) =>
        list.map((entry) =>
          entry.id === entryId && entry.role === 'assistant' ? { ...entry, kept: true } : entry,
        ),
      );
    },
    /** 'Add to brief': recommendations into the brief's Recommendations (saved at once). */
    addRecommendations(items: readonly string[]) {
      const have = briefRef.current.recommendations;
      const fresh = items.filter((item) => !have.includes(item));
      const room = BRIEF_LIST_MAX_ITEMS - have.length;
      if (fresh.length > room) {
        toast.error(`The brief holds at most ${BRIEF_LIST_MAX_ITEMS} recommendations.`);
      }
      if (fresh.length === 0 || room <= 0) return;
      correctBrief({ ...briefRef.current, recommendations: [...have, ...fresh.slice(0, room)] }, 'now');
    },
    /** Resumes a session from Brief Sessions (its data is in hand). */
    resume(session: ChatSession) {
      leave();
      setLoading(false);
      show(session);
    },
    open,
    /** Leaves the session (it stays in Brief Sessions) for an empty brief. */
    newChat() {
      leave();
      setLoading(false);
      setSessionId(null);
      setEntries([]);
      setBrief(emptyBriefData());
      setProblem(null);
    },
  };
}

export type BriefChat = ReturnType<typeof useBriefChat>;
