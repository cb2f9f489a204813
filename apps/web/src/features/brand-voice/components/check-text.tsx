import {
  brandTargetIds,
  brandTargetLabel,
  MAX_CHECK_CHARACTERS,
  type BrandTarget,
} from '@gem/contracts/brand-voice';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, SelectField, TextAreaField } from '@/components/ui/fields';
import { EraseIcon, SparkIcon } from '@/components/ui/icons';
import { OutputPlaceholder, OutputSurface } from '@/components/ui/output-surface';
import { Split } from '@/components/ui/split';
import { InputPanel, ReturnToMenu, ToolStack } from '@/components/ui/tool-layout';
import { StyleFindings } from '@/lib/brand-voice/components/style-findings';
import { useStyleFindings } from '@/lib/brand-voice/use-style-findings';

import styles from './check-text.module.css';

type TargetChoice = BrandTarget | '';

const targetOptions: { value: TargetChoice; label: string }[] = [
  { value: '', label: 'Any text (no tool or channel)' },
  // Each tool and channel (the contract lists the article, both, once).
  ...brandTargetIds.map((target) => ({ value: target, label: brandTargetLabel(target) })),
];

/**
 * The 'Check text' page (issue 31): paste any text, say what it is for if it is for something,
 * and check it against the brand profile in force; the findings are marked in the text, with
 * Apply, Apply all and Undo changing the text in the field, ready to copy.
 */
export function CheckText() {
  const [text, setText] = useState('');
  const [target, setTarget] = useState<TargetChoice>('');
  const findings = useStyleFindings({ text, onChange: setText, target: target || undefined });
  const headingId = useId();
  const ready = text.trim() !== '' && !isOverLimit(text, MAX_CHECK_CHARACTERS);

  return (
    <ToolStack>
      {/* Each column as tall as its own content: the findings can be much longer than the form. */}
      <Split align="start" className={styles.workspace}>
        <InputPanel
          title="Your text"
          description="Paste a text in Polish or English. GEM checks it against the brand profile and the house’s typography."
          onSubmit={() => {
            if (ready && !findings.isChecking) void findings.check();
          }}
        >
          <TextAreaField
            label="Text to check"
            subject="The text"
            value={text}
            onValueChange={setText}
            limit={MAX_CHECK_CHARACTERS}
            rows={14}
          />
          <SelectField
            label="What is it for? (optional)"
            value={target}
            options={targetOptions}
            onValueChange={setTarget}
          />
          <p className={styles.hint}>
            A tool or channel adds its mandatory disclaimers and its length limit to the check.
          </p>
          <div className={styles.actions}>
            <Button
              type="submit"
              variant="brand"
              disabled={!ready || findings.isChecking}
              aria-busy={findings.isChecking || undefined}
            >
              <SparkIcon />
              {findings.isChecking ? 'Checking…' : 'Check'}
            </Button>
            <Button variant="secondary" onClick={() => setText('')} disabled={text === ''}>
              <EraseIcon />
              Clear
            </Button>
          </div>
        </InputPanel>
        <OutputSurface heading="Findings" headingId={headingId}>
          {findings.checked || findings.error ? (
            <>
              <StyleFindings state={findings} checkButton={findings.checked !== null} headingLevel="h3" />
              {text ? (
                <div className={styles.copy}>
                  <CopyButton text={text} label="Copy the text" />
                </div>
              ) : null}
            </>
          ) : (
            <OutputPlaceholder>
              <SparkIcon />
              <p>Paste a text and choose Check. Each finding is marked in the text, with a suggested fix.</p>
            </OutputPlaceholder>
          )}
        </OutputSurface>
      </Split>
      <ReturnToMenu />
    </ToolStack>
  );
}
