import { useEffect, useId, useRef, type FormEvent, type ReactNode, type Ref } from 'react';

import { Button, ButtonLink } from './button';
import { TextAreaField } from './fields';
import { ArrowLeftIcon, EraseIcon, SparkIcon, StopIcon } from './icons';
import { Split } from './split';
import styles from './tool-layout.module.css';

/** A tool page's parts, stacked: notice, workspace, history, the way back. */
export function ToolStack({ children }: { children: ReactNode }) {
  return <div className={styles.stack}>{children}</div>;
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
  return <Split className={styles.workspace}>{children}</Split>;
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
