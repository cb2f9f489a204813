import { ButtonLink } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { MailIcon } from '@/components/ui/icons';
import { OutputPanel } from '@/lib/writing-tools/components/output-panel';
import { ContentInputPanel, useContentTool, WritingTool } from '@/lib/writing-tools/components/writing-tool';
import { useGenerationHistory } from '@/lib/writing-tools/get-generation-history';
import { useGeneration } from '@/lib/writing-tools/use-generation';

import { teaserGeneratorInputOf, teaserGeneratorTexts } from '../generation';
import { mailtoHref } from './mailto';

/** Spec §2 Teaser: base content in, a teaser out, to copy or send by e-mail. */
export function TeaserGenerator() {
  const generation = useGeneration('teaser-generator', teaserGeneratorTexts);
  const tool = useContentTool(
    generation,
    useGenerationHistory('teaser-generator'),
    (record) => teaserGeneratorInputOf(record).content,
  );
  const { state, cancel } = generation;

  const teaser = state.output?.text ?? state.text;
  return (
    <WritingTool history={tool.historyProps}>
      <ContentInputPanel
        tool={tool}
        description="GEM writes a short teaser in Polish that makes readers want the full piece."
      />
      <OutputPanel
        state={state}
        onStop={cancel}
        placeholder="Paste the base content, then choose Generate. The teaser appears here as GEM writes it."
        actions={
          <>
            <CopyButton text={teaser} />
            <ButtonLink to={mailtoHref(teaser)} variant="secondary">
              <MailIcon />
              Send via email
            </ButtonLink>
          </>
        }
      />
    </WritingTool>
  );
}
