import { OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { type GenerationOutput } from '@gem/contracts/writing-tools';

import { CopyButton } from '@/components/ui/copy-button';
import { FormattedOutput } from '@/components/ui/formatted-output';
import { OutputLimit } from '@/lib/writing-tools/components/output-limit';
import { ContentWritingTool, useContentWritingTool } from '@/lib/writing-tools/components/writing-tool';

import { paidAdsInputOf, paidAdsTexts } from '../generation';
import styles from './paid-ads-generator.module.css';

/** Spec §2 Paid ads: base content in; an analysis and ad copy (at most 600 characters) out. */
export function PaidAdsGenerator() {
  const tool = useContentWritingTool('paid-ads', paidAdsTexts, (record) => paidAdsInputOf(record).content);
  const { output, text } = tool.state;
  // Only the ad copy is what gets pasted into the ad; the analysis explains it.
  const adCopy = output ? (output.copy ?? output.text) : text;
  return (
    <ContentWritingTool
      tool={tool}
      description="GEM analyses it and writes ad copy in Polish, at most 600 characters with spaces and emoji."
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
    </ContentWritingTool>
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
