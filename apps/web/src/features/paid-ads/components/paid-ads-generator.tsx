import { OUTPUT_CHARACTER_LIMIT, type GenerationOutput } from '@gem/contracts/generators';
import { useRef, useState } from 'react';

import { AiServiceNotice } from '@/components/ui/ai-service-notice';
import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, TextAreaField } from '@/components/ui/fields';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { historyEntry, HistoryList } from '@/components/ui/history-list';
import { OutputLimit } from '@/components/ui/output-limit';
import { OutputPanel } from '@/components/ui/output-panel';
import {
  GenerateActions,
  InputPanel,
  ReturnToMenu,
  ToolStack,
  ToolWorkspace,
} from '@/components/ui/tool-layout';
import { useAiNotConfigured } from '@/lib/generators/get-ai-status';

import { useGeneratePaidAds } from '../api/generate-paid-ads';
import { paidAdsInputOf, usePaidAdsHistory } from '../api/get-paid-ads-history';
import styles from './paid-ads-generator.module.css';

/** Spec §2 Paid ads: base content in; an analysis and ad copy (at most 600 characters) out. */
export function PaidAdsGenerator() {
  const [content, setContent] = useState('');
  const [shownId, setShownId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const notConfigured = useAiNotConfigured();
  const history = usePaidAdsHistory();
  const { state, isGenerating, generate, cancel, restore } = useGeneratePaidAds();

  const ready = content.trim() !== '' && !isOverLimit(content);

  function submit() {
    if (!ready || isGenerating) return;
    setShownId(null);
    void generate({ content });
  }

  function reopen(id: string) {
    const record = history.data?.items.find((item) => item.id === id);
    if (!record) return;
    setContent(paidAdsInputOf(record).content);
    restore(record.output);
    setShownId(id);
    headingRef.current?.focus();
  }

  const output = state.output;
  // Only the ad copy is what gets pasted into the ad; the analysis explains it.
  const adCopy = output ? (output.copy ?? output.text) : state.text;
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : null}
      <ToolWorkspace>
        <InputPanel
          title="Base content"
          description="GEM analyses it and writes ad copy in Polish, at most 600 characters with spaces and emoji."
          onSubmit={submit}
          headingRef={headingRef}
        >
          <TextAreaField
            label="Paste the base content"
            subject="The content"
            value={content}
            onValueChange={setContent}
            rows={12}
          />
          <GenerateActions ready={ready} isGenerating={isGenerating} onClear={() => setContent('')} />
        </InputPanel>
        <OutputPanel
          title="Check the output"
          state={state}
          onStop={cancel}
          placeholder="Paste the base content, then choose Generate. The analysis and the ad copy appear here as GEM writes them."
          actions={
            <>
              <CopyButton text={adCopy} />
              <OutputLimit
                text={adCopy}
                limit={OUTPUT_CHARACTER_LIMIT}
                shortened={output?.shortened}
                truncated={output?.truncated}
              />
            </>
          }
        >
          {output ? <PaidAdsParts output={output} /> : null}
        </OutputPanel>
      </ToolWorkspace>
      <HistoryList
        entries={history.data?.items.map((record) => historyEntry(record, paidAdsInputOf(record).content))}
        isError={history.isError}
        onRetry={() => void history.refetch()}
        onSelect={reopen}
        selectedId={shownId}
      />
      <ReturnToMenu />
    </ToolStack>
  );
}

/** The finished output in its two parts; when the server did not split it, the whole text. */
function PaidAdsParts({ output }: { output: GenerationOutput }) {
  if (output.copy === undefined) return <FormattedOutput text={output.text} />;
  return (
    <div className={styles.parts}>
      {output.analysis ? (
        <section className={styles.part} aria-labelledby="paid-ads-analysis">
          <h3 id="paid-ads-analysis" className={styles.partTitle}>
            Analysis
          </h3>
          <FormattedOutput text={output.analysis} />
        </section>
      ) : null}
      <section className={`${styles.part} ${styles.copy}`} aria-labelledby="paid-ads-copy">
        <h3 id="paid-ads-copy" className={styles.partTitle}>
          Ad copy
        </h3>
        <FormattedOutput text={output.copy} />
      </section>
    </div>
  );
}
