import { ButtonLink } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { MailIcon } from '@/components/ui/icons';
import { OutputPanel } from '@/components/ui/output-panel';
import { ContentInputPanel, useContentTool, WritingTool } from '@/components/ui/tool-layout';

import { useGenerateTeaser } from '../api/generate-teaser';
import { teaserInputOf, useTeaserHistory } from '../api/get-teaser-history';
import { mailtoHref } from './mailto';

/** Spec §2 Teaser: base content in, a teaser out, to copy or send by e-mail. */
export function TeaserGenerator() {
  const generation = useGenerateTeaser();
  const tool = useContentTool(generation, useTeaserHistory(), (record) => teaserInputOf(record).content);
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
