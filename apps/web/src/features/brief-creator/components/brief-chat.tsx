import { briefLanguages, type BriefLanguage } from '@gem/contracts/brief-creator';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { SelectField, TextArea } from '@/components/ui/fields';
import { CheckIcon, CloseIcon, SparkIcon } from '@/components/ui/icons';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';

import { greetings } from '../chat-entries';
import type { BriefChat as BriefChatState } from '../use-brief-chat';
import styles from './brief-creator.module.css';
import { ChatBubble } from './chat-bubble';

const languageOptions = briefLanguages.map((language) => ({ value: language, label: language }));

export const finishedBriefLink = (briefId: string) =>
  `/tools/brief-creator/finished/${encodeURIComponent(briefId)}`;

/** The chat (spec §2, right): language, the conversation, the three actions and the message box. */
export function BriefChat({ chat, aiUnavailable }: { chat: BriefChatState; aiUnavailable: boolean }) {
  const headingId = useId();
  const hintId = useId();
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const blank = chat.input.trim() === '';
  const actionsDisabled = chat.isBusy || chat.sessionId === null;
  // Keep the newest words in view as they arrive (and when an answer turns into a list).
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [chat.entries]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Spec §2: Enter sends, Shift+Enter adds a line (and Enter while composing an IME word does not send).
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    chat.send();
  }

  return (
    <section className={styles.chat} aria-labelledby={headingId}>
      <header className={styles.chatHeader}>
        <h2 id={headingId} className={styles.panelTitle}>
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
            className={styles.smallButton}
            onClick={() => {
              chat.newChat();
              inputRef.current?.focus();
            }}
            disabled={chat.sessionId === null && chat.entries.length === 0}
          >
            New chat
          </Button>
        </div>
      </header>

      {chat.accepted ? (
        <div className={styles.accepted} role="status">
          <CheckIcon className={styles.acceptedIcon} />
          <p>
            <strong>Brief accepted.</strong> &ldquo;{chat.accepted.title}&rdquo; is now in Finished Briefs.{' '}
            <Link to={finishedBriefLink(chat.accepted.id)}>View the finished brief</Link>
          </p>
          <button
            type="button"
            className={styles.iconButton}
            aria-label="Dismiss"
            onClick={chat.dismissAccepted}
          >
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
        // A scrolling region must be reachable by keyboard.
        tabIndex={0}
      >
        <ol className={styles.messages}>
          <li className={styles.assistantRow}>
            <div className={styles.bubbleAssistant}>
              <span className="visually-hidden">Assistant: </span>
              <p>{greetings[chat.language]}</p>
            </div>
          </li>
          {chat.entries.map((entry) => (
            <ChatBubble key={entry.id} entry={entry} />
          ))}
        </ol>
      </div>

      <div className={styles.chatActions} role="group" aria-label="Brief actions">
        <Button
          variant="secondary"
          className={styles.smallButton}
          disabled={actionsDisabled}
          onClick={chat.generateTargetAudience}
        >
          <SparkIcon />
          Generate target audience
        </Button>
        <Button
          variant="secondary"
          className={styles.smallButton}
          disabled={actionsDisabled}
          onClick={chat.generateRecommendations}
        >
          <SparkIcon />
          Generate recommendations
        </Button>
        <Button
          variant="primary"
          className={styles.smallButton}
          disabled={actionsDisabled}
          onClick={chat.acceptBrief}
        >
          <CheckIcon />
          Accept brief
        </Button>
      </div>

      {chat.problem ? <GenerationProblemAlert problem={chat.problem} /> : null}

      <form
        className={styles.composer}
        onSubmit={(event) => {
          event.preventDefault();
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
          disabled={chat.isBusy || blank}
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
