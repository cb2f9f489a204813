import { useEffect, useState } from 'react';

import { Button } from './button';
import { CheckIcon, CopyIcon } from './icons';

// Spec §9: the 'Copied!' indicator lasts 2 s.
const indicatorMs = 2000;

type CopyButtonProps = {
  /** Exactly what lands on the clipboard (the raw output, not the rendered text). */
  text: string;
  label?: string;
  disabled?: boolean;
  /** What the button copies, when its label alone does not say (several 'Copy URL' on a page). */
  describedBy?: string;
};

/** 'Copy to clipboard', then 'Copied!' for 2 s; a screen reader hears the outcome too. */
export function CopyButton({ text, label = 'Copy to clipboard', disabled, describedBy }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), indicatorMs);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard access (an insecure page, a denied permission).
      setState('failed');
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        onClick={() => void copy()}
        disabled={disabled}
        aria-describedby={describedBy}
      >
        {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
        {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : label}
      </Button>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? 'Could not copy. Select the text and copy it with the keyboard.'
            : ''}
      </span>
    </>
  );
}
