import { ButtonLink } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { MailIcon } from '@/components/ui/icons';
import { ContentWritingTool, useContentWritingTool } from '@/lib/writing-tools/components/writing-tool';

import { teaserGeneratorInputOf, teaserGeneratorTexts } from '../generation';
import { mailtoHref } from './mailto';

/** Spec §2 Teaser: base content in, a teaser out, to copy or send by e-mail. */
export function TeaserGenerator() {
  const tool = useContentWritingTool(
    'teaser-generator',
    teaserGeneratorTexts,
    (record) => teaserGeneratorInputOf(record).content,
  );
  const teaser = tool.state.output?.text ?? tool.state.text;
  return (
    <ContentWritingTool
      tool={tool}
      description="GEM writes a short teaser in Polish that makes readers want the full piece."
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
  );
}
