import { OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/generators';
import { useRef, useState } from 'react';

import { AiServiceNotice } from '@/components/ui/ai-service-notice';
import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, TextAreaField } from '@/components/ui/fields';
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

import { useGenerateArticle } from '../api/generate-article';
import { articleInputOf, useArticleHistory } from '../api/get-article-history';

/** Spec §2 Article: content and task in, a short article out (at most 600 characters). */
export function ArticleGenerator() {
  const [content, setContent] = useState('');
  const [task, setTask] = useState('');
  const [shownId, setShownId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const notConfigured = useAiNotConfigured();
  const history = useArticleHistory();
  const { state, isGenerating, generate, cancel, restore } = useGenerateArticle();

  // Spec §5: Generate needs both task and content and no request in progress.
  const ready = content.trim() !== '' && task.trim() !== '' && !isOverLimit(content) && !isOverLimit(task);

  function submit() {
    if (!ready || isGenerating) return;
    setShownId(null);
    void generate({ content, task });
  }

  function reopen(id: string) {
    const record = history.data?.items.find((item) => item.id === id);
    if (!record) return;
    const input = articleInputOf(record);
    setContent(input.content);
    setTask(input.task);
    restore(record.output);
    setShownId(id);
    headingRef.current?.focus();
  }

  const output = state.output;
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : null}
      <ToolWorkspace>
        <InputPanel
          title="Brief GEM"
          description="GEM writes a short article in Polish, at most 600 characters."
          onSubmit={submit}
          headingRef={headingRef}
        >
          <TextAreaField
            label="Paste the base content"
            subject="The content"
            value={content}
            onValueChange={setContent}
            rows={9}
          />
          <TextAreaField
            label="Describe the task for GEM"
            subject="The task"
            hint="For example: a news item for the website about the report's three main findings."
            value={task}
            onValueChange={setTask}
            rows={3}
          />
          <GenerateActions
            ready={ready}
            isGenerating={isGenerating}
            onClear={() => {
              setContent('');
              setTask('');
            }}
          />
        </InputPanel>
        <OutputPanel
          title="Check the output"
          state={state}
          onStop={cancel}
          placeholder="Paste the base content, describe the task, then choose Generate. The article appears here as GEM writes it."
          actions={
            <>
              <CopyButton text={output?.text ?? state.text} />
              <OutputLimit
                text={output?.text ?? state.text}
                limit={OUTPUT_CHARACTER_LIMIT}
                shortened={output?.shortened}
                truncated={output?.truncated}
              />
            </>
          }
        />
      </ToolWorkspace>
      <HistoryList
        entries={history.data?.items.map((record) => historyEntry(record, articleInputOf(record).task))}
        isError={history.isError}
        onRetry={() => void history.refetch()}
        onSelect={reopen}
        selectedId={shownId}
      />
      <ReturnToMenu />
    </ToolStack>
  );
}
