import { useRef, useState } from 'react';

import { AiServiceNotice } from '@/components/ui/ai-service-notice';
import { ButtonLink } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, TextAreaField } from '@/components/ui/fields';
import { historyEntry, HistoryList } from '@/components/ui/history-list';
import { MailIcon } from '@/components/ui/icons';
import { OutputPanel } from '@/components/ui/output-panel';
import {
  GenerateActions,
  InputPanel,
  ReturnToMenu,
  ToolStack,
  ToolWorkspace,
} from '@/components/ui/tool-layout';
import { useAiNotConfigured } from '@/lib/generators/get-ai-status';

import { useGenerateTeaser } from '../api/generate-teaser';
import { teaserInputOf, useTeaserHistory } from '../api/get-teaser-history';
import { mailtoHref } from './mailto';

/** Spec §2 Teaser: base content in, a teaser out, to copy or send by e-mail. */
export function TeaserGenerator() {
  const [content, setContent] = useState('');
  const [shownId, setShownId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const notConfigured = useAiNotConfigured();
  const history = useTeaserHistory();
  const { state, isGenerating, generate, cancel, restore } = useGenerateTeaser();

  const ready = content.trim() !== '' && !isOverLimit(content);

  function submit() {
    if (!ready || isGenerating) return;
    setShownId(null);
    void generate({ content });
  }

  function reopen(id: string) {
    const record = history.data?.items.find((item) => item.id === id);
    if (!record) return;
    setContent(teaserInputOf(record).content);
    restore(record.output);
    setShownId(id);
    headingRef.current?.focus();
  }

  const teaser = state.output?.text ?? state.text;
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : null}
      <ToolWorkspace>
        <InputPanel
          title="Base content"
          description="GEM writes a short teaser in Polish that makes readers want the full piece."
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
      </ToolWorkspace>
      <HistoryList
        entries={history.data?.items.map((record) => historyEntry(record, teaserInputOf(record).content))}
        isError={history.isError}
        onRetry={() => void history.refetch()}
        onSelect={reopen}
        selectedId={shownId}
      />
      <ReturnToMenu />
    </ToolStack>
  );
}
