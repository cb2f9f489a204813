import {
  briefFieldLabels,
  briefLanguages,
  missingRequiredFields,
  type BriefLanguage,
} from '@gem/contracts/brief-creator';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { SelectField, TextArea } from '@/components/ui/fields';
import { CheckIcon, CloseIcon, SparkIcon } from '@/components/ui/icons';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';

import { greetings } from '../chat-entries';
import type { BriefChat as BriefChatState } from '../use-brief-chat';
import styles from './brief-chat.module.css';
import shared from './brief-creator.module.css';
import { ChatBubble, type BubbleActions } from './chat-bubble';

const languageOptions = briefLanguages.map((language) => ({ value: language, label: language }));

export const finishedBriefLink = (briefId: string) =>
  `/tools/brief-creator/finished/${encodeURIComponent(briefId)}`;

/** Within this many pixels of the end, the conversation counts as read to the newest message. */
const AT_END_PX = 48;

/** "3 required fields are empty: Campaign name, Channels, Business KPIs. Accept anyway?" */
export function acceptQuestion(missing: readonly (keyof typeof briefFieldLabels)[]): string {
  const names = missing.map((field) => briefFieldLabels[field]).join(', ');
  const count =
    missing.length === 1 ? '1 required field is empty' : `${missing.length} required fields are empty`;
  return `${count}: ${names}. Accept anyway?`;
}

type BriefChatProps = {
  chat: BriefChatState;
  aiUnavailable: boolean;
  /** The page is still finding out which chat to open. */
  resolving?: boolean;
  /** Leaves the session for a new chat (the page puts it in the URL). */
  onNewChat: () => void;
  /** A line above the conversation, e.g. which finished brief this chat started from. */
  notice?: { text: string; onDismiss: () => void } | null;
};

/** The chat (spec §2, right): language, the conversation, the three actions and the message box. */
export function BriefChat({ chat, aiUnavailable, resolving = false, onNewChat, notice }: BriefChatProps) {
  const headingId = useId();
  const hintId = useId();
  const confirmId = useId();
  const logRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const keepEditingRef = useRef<HTMLButtonElement>(null);
  // Whether the newest message is in view: new words keep it there unless the user scrolled up.
  const atEnd = useRef(true);
  // The session the question 'Accept anyway?' is about: another session, or a turn, closes it.
  const [confirmingFor, setConfirmingFor] = useState<string | null>(null);
  const blank = chat.input.trim() === '';
  const loading = chat.loading || resolving;
  const working = chat.isBusy || loading;
  const actionsDisabled = working || chat.sessionId === null;
  const missing = missingRequiredFields(chat.brief);
  const lastEntry = chat.entries.at(-1);
  const confirming = confirmingFor !== null && confirmingFor === chat.sessionId && !working;
  const setConfirming = (open: boolean) => setConfirmingFor(open ? chat.sessionId : null);

  function toEnd() {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }

  // A session opened afresh starts at its newest message.
  useLayoutEffect(() => {
    atEnd.current = true;
    toEnd();
  }, [chat.sessionId]);

  // New words, a bubble grown into a list, a notice or an alert taking room: the newest stays in view.
  useLayoutEffect(() => {
    if (atEnd.current) toEnd();
  });

  useEffect(() => {
    const log = logRef.current;
    const list = listRef.current;
    if (!log || !list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atEnd.current) toEnd();
    });
    observer.observe(log);
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (confirming) keepEditingRef.current?.focus();
  }, [confirming]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Spec §2: Enter sends, Shift+Enter adds a line (and Enter while composing an IME word does not send).
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    atEnd.current = true;
    chat.send();
  }

  function accept() {
    // Issue 27: a brief with required fields empty is accepted only when the user says so.
    if (missing.length > 0) setConfirming(true);
    else chat.acceptBrief();
  }

  const bubbleActions: BubbleActions = {
    brief: chat.brief,
    busy: working,
    canRetry: false,
    onRetry: (entry) => {
      atEnd.current = true;
      chat.retry(entry);
    },
    onApplyTargetAudience: chat.applyTargetAudience,
    onKeepTargetAudience: chat.keepTargetAudience,
    onAddRecommendations: chat.addRecommendations,
  };

  return (
    <section className={styles.chat} aria-labelledby={headingId}>
      <header className={styles.chatHeader}>
        <h2 id={headingId} className={styles.chatTitle}>
          Chat with the assistant
        </h2>
        <div className={styles.chatTools}>
          <div className={styles.language}>
            <SelectField<BriefLanguage>
              label="Language"
              value={chat.language}
              options={languageOptions}
              onValueChange={chat.setLanguage}
            />
          </div>
          <Button
            variant="secondary"
            className={shared.smallButton}
            onClick={() => {
              onNewChat();
              inputRef.current?.focus();
            }}
            disabled={chat.sessionId === null && chat.entries.length === 0 && !loading}
          >
            New chat
          </Button>
        </div>
      </header>

      {chat.accepted ? (
        <div className={styles.accepted} role="status">
          <CheckIcon className={styles.acceptedIcon} />
          <p>
            {chat.accepted.earlier ? (
              <>
                <strong>This chat is finished:</strong> its brief &ldquo;{chat.accepted.title}&rdquo; was
                accepted. A new chat starts here.
              </>
            ) : (
              <>
                <strong>Brief accepted.</strong> &ldquo;{chat.accepted.title}&rdquo; is now in Finished
                Briefs.
              </>
            )}{' '}
            {chat.accepted.id ? (
              <Link to={finishedBriefLink(chat.accepted.id)}>View the finished brief</Link>
            ) : null}
          </p>
          <button
            type="button"
            className={shared.iconButton}
            aria-label="Dismiss"
            onClick={chat.dismissAccepted}
          >
            <CloseIcon />
          </button>
        </div>
      ) : null}

      {notice ? (
        <div className={styles.accepted} role="status">
          <CheckIcon className={styles.acceptedIcon} />
          <p>{notice.text}</p>
          <button type="button" className={shared.iconButton} aria-label="Dismiss" onClick={notice.onDismiss}>
            <CloseIcon />
          </button>
        </div>
      ) : null}

      <div
        ref={logRef}
        className={styles.log}
        role="log"
        aria-label="Conversation"
        aria-live="polite"
        aria-relevant="additions text"
        aria-busy={loading || undefined}
        // A scrolling region must be reachable by keyboard.
        tabIndex={0}
        onScroll={(event) => {
          const log = event.currentTarget;
          atEnd.current = log.scrollHeight - log.scrollTop - log.clientHeight <= AT_END_PX;
        }}
      >
        <ol ref={listRef} className={styles.messages}>
          <li className={styles.assistantRow}>
            <div className={styles.bubbleAssistant}>
              <span className="visually-hidden">Assistant: </span>
              <p>{greetings[chat.language]}</p>
            </div>
          </li>
          {chat.entries.map((entry) => (
            <ChatBubble
              key={entry.id}
              entry={entry}
              actions={{
                ...bubbleActions,
                canRetry: entry === lastEntry && chat.sessionId !== null,
              }}
            />
          ))}
          {loading ? (
            <li className={styles.assistantRow}>
              <p className={styles.loadingText}>Loading the chat…</p>
            </li>
          ) : null}
        </ol>
      </div>

      {confirming ? (
        <div
          className={styles.confirm}
          role="alertdialog"
          aria-labelledby={confirmId}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setConfirming(false);
          }}
        >
          <p id={confirmId} className={styles.confirmText}>
            {acceptQuestion(missing)}
          </p>
          <div className={styles.confirmButtons}>
            <Button
              variant="primary"
              className={shared.smallButton}
              onClick={() => {
                setConfirming(false);
                chat.acceptBrief();
              }}
            >
              Accept anyway
            </Button>
            <Button
              ref={keepEditingRef}
              variant="secondary"
              className={shared.smallButton}
              onClick={() => setConfirming(false)}
            >
              Keep editing
            </Button>
          </div>
        </div>
      ) : (
        <div className={styles.chatActions} role="group" aria-label="Brief actions">
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actionsDisabled}
            onClick={chat.generateTargetAudience}
          >
            <SparkIcon />
            Generate target audience
          </Button>
          <Button
            variant="secondary"
            className={shared.smallButton}
            disabled={actionsDisabled}
            onClick={chat.generateRecommendations}
          >
            <SparkIcon />
            Generate recommendations
          </Button>
          <Button
            // The main action only once every required field is filled.
            variant={missing.length === 0 ? 'primary' : 'secondary'}
            className={shared.smallButton}
            disabled={actionsDisabled}
            onClick={accept}
          >
            <CheckIcon />
            Accept brief
          </Button>
        </div>
      )}

      {chat.problem ? <GenerationProblemAlert problem={chat.problem} /> : null}

      <form
        className={styles.composer}
        onSubmit={(event) => {
          event.preventDefault();
          atEnd.current = true;
          chat.send();
        }}
      >
        <label className="visually-hidden" htmlFor={`${headingId}-input`}>
          Your message
        </label>
        <TextArea
          ref={inputRef}
          id={`${headingId}-input`}
          density="compact"
          className={styles.composerInput}
          rows={2}
          value={chat.input}
          placeholder={aiUnavailable ? 'The AI service is not configured' : 'Write a message…'}
          aria-describedby={hintId}
          onChange={(event) => chat.setInput(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button
          type="submit"
          variant="brand"
          disabled={working || blank}
          aria-busy={chat.isBusy || undefined}
        >
          Send
        </Button>
      </form>
      <p id={hintId} className={styles.composerHint}>
        {chat.isBusy ? 'The assistant is answering…' : 'Enter sends, Shift+Enter adds a line.'}
      </p>
    </section>
  );
}
