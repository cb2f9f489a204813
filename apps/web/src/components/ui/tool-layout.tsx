import type {
  GenerationHistoryResponse,
  GenerationOutput,
  GenerationRecord,
} from '@gem/contracts/generators';
import type { UseQueryResult } from '@tanstack/react-query';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type Ref,
  type RefObject,
} from 'react';

import { useAiNotConfigured } from '@/lib/generators/get-ai-status';

import { AiServiceNotice } from './ai-service-notice';
import { Button, ButtonLink } from './button';
import { isOverLimit, TextAreaField } from './fields';
import { historyEntry, HistoryList, type HistoryListProps } from './history-list';
import { ArrowLeftIcon, EraseIcon, SparkIcon, StopIcon } from './icons';
import styles from './tool-layout.module.css';

/** A writing tool's parts, stacked: notice, workspace, history, the way back. */
export function ToolStack({ children }: { children: ReactNode }) {
  return <div className={styles.stack}>{children}</div>;
}

/**
 * An AI writing tool's page body: the not-configured notice when it applies, the input and
 * output panels side by side (`children`), the user's recent outputs, and the way back.
 */
export function WritingTool({ history, children }: { history: HistoryListProps; children: ReactNode }) {
  const notConfigured = useAiNotConfigured();
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : null}
      <ToolWorkspace>{children}</ToolWorkspace>
      <HistoryList {...history} />
      <ReturnToMenu />
    </ToolStack>
  );
}

type HistorySelectionOptions = {
  /** What a person recognises an earlier output by: its task, description or content. */
  titleOf: (record: GenerationRecord) => string;
  /** Puts the record's inputs back in the fields and its output in the output panel. */
  restore: (record: GenerationRecord) => void;
};

export type HistorySelection = {
  /** For the input panel's heading, which takes focus when an earlier output comes back. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** A new generation started: no history entry is the one shown any more. */
  clearSelection: () => void;
  /** For WritingTool's history list. */
  historyProps: HistoryListProps;
};

/** Choosing one of the recent outputs restores it, marks it as shown and focuses the inputs. */
export function useHistorySelection(
  history: UseQueryResult<GenerationHistoryResponse>,
  { titleOf, restore }: HistorySelectionOptions,
): HistorySelection {
  const [shownId, setShownId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const items = history.data?.items;

  function select(id: string) {
    const record = items?.find((item) => item.id === id);
    if (!record) return;
    restore(record);
    setShownId(id);
    headingRef.current?.focus();
  }

  return {
    headingRef,
    clearSelection: () => setShownId(null),
    historyProps: {
      entries: items?.map((record) => historyEntry(record, titleOf(record))),
      isError: history.isError,
      onRetry: () => void history.refetch(),
      onSelect: select,
      selectedId: shownId,
    },
  };
}

/** What useContentTool needs of a tool's generation (useGeneration's result). */
type ContentGeneration = {
  isGenerating: boolean;
  generate: (input: { content: string }) => Promise<unknown>;
  restore: (output: GenerationOutput | null) => void;
};

export type ContentTool = HistorySelection & {
  content: string;
  setContent: (content: string) => void;
  /** There is content, within the input limit. */
  ready: boolean;
  isGenerating: boolean;
  submit: () => void;
};

/**
 * The input side of a tool that takes the base content only (paid ads, teaser): the field,
 * Generate once there is content, and the history bringing back earlier content and output.
 */
export function useContentTool(
  generation: ContentGeneration,
  history: UseQueryResult<GenerationHistoryResponse>,
  contentOf: (record: GenerationRecord) => string,
): ContentTool {
  const [content, setContent] = useState('');
  const selection = useHistorySelection(history, {
    titleOf: contentOf,
    restore: (record) => {
      setContent(contentOf(record));
      generation.restore(record.output);
    },
  });
  const ready = content.trim() !== '' && !isOverLimit(content);
  return {
    ...selection,
    content,
    setContent,
    ready,
    isGenerating: generation.isGenerating,
    submit() {
      if (!ready || generation.isGenerating) return;
      selection.clearSelection();
      void generation.generate({ content });
    },
  };
}

/** The input panel of a content-only tool: 'Base content', the field, Generate and Clear fields. */
export function ContentInputPanel({ tool, description }: { tool: ContentTool; description: string }) {
  return (
    <InputPanel
      title="Base content"
      description={description}
      onSubmit={tool.submit}
      headingRef={tool.headingRef}
    >
      <BaseContentField value={tool.content} onValueChange={tool.setContent} />
      <GenerateActions
        ready={tool.ready}
        isGenerating={tool.isGenerating}
        onClear={() => tool.setContent('')}
      />
    </InputPanel>
  );
}

/** 'Paste the base content': the field every writing tool starts from. */
export function BaseContentField({
  value,
  onValueChange,
  rows = 12,
}: {
  value: string;
  onValueChange: (value: string) => void;
  rows?: number;
}) {
  return (
    <TextAreaField
      label="Paste the base content"
      subject="The content"
      value={value}
      onValueChange={onValueChange}
      rows={rows}
    />
  );
}

/** The two halves of a writing tool: what goes in (left), what comes out (right). */
export function ToolWorkspace({ children }: { children: ReactNode }) {
  return <div className={styles.workspace}>{children}</div>;
}

type InputPanelProps = {
  title: string;
  /** One line under the heading. */
  description?: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
  /** The heading takes focus when an earlier output is brought back. */
  headingRef?: Ref<HTMLHeadingElement>;
};

/** The input side: a form with a heading, its fields and its actions. */
export function InputPanel({ title, description, onSubmit, children, headingRef }: InputPanelProps) {
  const headingId = useId();
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form className={styles.inputPanel} aria-labelledby={headingId} onSubmit={submit} noValidate>
      <div className={styles.inputHeader}>
        <h2 id={headingId} className={styles.inputTitle} ref={headingRef} tabIndex={-1}>
          {title}
        </h2>
        {description ? <p className={styles.inputDescription}>{description}</p> : null}
      </div>
      {children}
    </form>
  );
}

/** A titled group of fields inside an input panel (a step of the social post). */
export function FieldGroup({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={styles.group} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.groupTitle}>
        {title}
      </h3>
      {children}
    </section>
  );
}

type GenerateActionsProps = {
  /** The submit button's text ('Generate', 'Summarize'). */
  label?: string;
  /** All inputs are there and within their limits. */
  ready: boolean;
  isGenerating: boolean;
  /** A Stop button here, while generating (when the output panel does not have one). */
  onStop?: () => void;
  /** 'Clear fields', when the tool has it. */
  onClear?: () => void;
  /** A plain button instead of the form's submit (a second action in one form). */
  onGenerate?: () => void;
  variant?: 'brand' | 'primary' | 'secondary';
};

/**
 * Generate (disabled while generating or when inputs are missing), Clear fields, and Stop
 * while generating when asked for here. Keyboard focus moves to that Stop when it appears and
 * back to Generate after, so it is never lost on a button that became disabled.
 */
export function GenerateActions({
  label = 'Generate',
  ready,
  isGenerating,
  onStop,
  onClear,
  onGenerate,
  variant = 'brand',
}: GenerateActionsProps) {
  const generateRef = useRef<HTMLButtonElement>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    const active = document.activeElement;
    if (isGenerating && active === generateRef.current && onStop) {
      hadFocus.current = true;
      stopRef.current?.focus();
    } else if (!isGenerating && hadFocus.current) {
      hadFocus.current = false;
      if (document.activeElement === document.body || document.activeElement === null) {
        generateRef.current?.focus();
      }
    }
  }, [isGenerating, onStop]);

  return (
    <div className={styles.actions}>
      <Button
        ref={generateRef}
        type={onGenerate ? 'button' : 'submit'}
        variant={variant}
        disabled={!ready || isGenerating}
        aria-busy={isGenerating || undefined}
        onClick={onGenerate}
      >
        <SparkIcon />
        {label}
      </Button>
      {isGenerating && onStop ? (
        <Button ref={stopRef} variant="secondary" onClick={onStop}>
          <StopIcon />
          Stop
        </Button>
      ) : null}
      {onClear ? (
        <Button variant="secondary" onClick={onClear} className={styles.clear}>
          <EraseIcon />
          Clear fields
        </Button>
      ) : null}
    </div>
  );
}

/** Spec §2: 'Want to generate something else?' and 'Return to menu' → /tools. */
export function ReturnToMenu() {
  return (
    <aside className={styles.returnStrip} aria-label="Other tools">
      <p className={styles.returnText}>Want to generate something else?</p>
      <ButtonLink to="/tools" variant="secondary">
        <ArrowLeftIcon />
        Return to menu
      </ButtonLink>
    </aside>
  );
}
