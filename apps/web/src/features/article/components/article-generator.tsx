import { OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { useState } from 'react';

import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, TextAreaField } from '@/components/ui/fields';
import { BaseContentField, GenerateActions, InputPanel } from '@/components/ui/tool-layout';
import { useBaseContent } from '@/lib/writing-tools/base-content-state';
import { OutputLimit } from '@/lib/writing-tools/components/output-limit';
import { OutputPanel } from '@/lib/writing-tools/components/output-panel';
import { useHistorySelection, WritingTool } from '@/lib/writing-tools/components/writing-tool';
import { useGenerationHistory } from '@/lib/writing-tools/get-generation-history';
import { useGeneration } from '@/lib/writing-tools/use-generation';

import { articleInputOf, articleTexts } from '../generation';

/** Spec §2 Article: content and task in, a short article out (at most 600 characters). */
export function ArticleGenerator() {
  const [content, setContent] = useBaseContent();
  const [task, setTask] = useState('');
  const { state, isGenerating, generate, cancel, restore } = useGeneration('article', articleTexts);
  const selection = useHistorySelection(useGenerationHistory('article'), {
    titleOf: (record) => articleInputOf(record).task,
    restore: (record) => {
      const input = articleInputOf(record);
      setContent(input.content);
      setTask(input.task);
      restore(record.output);
    },
  });

  // Spec §5: Generate needs both task and content and no request in progress.
  const ready = content.trim() !== '' && task.trim() !== '' && !isOverLimit(content) && !isOverLimit(task);

  function submit() {
    if (!ready || isGenerating) return;
    selection.clearSelection();
    void generate({ content, task });
  }

  const output = state.output;
  return (
    <WritingTool history={selection.historyProps}>
      <InputPanel
        title="Base content and task"
        description="GEM writes a short article in Polish, at most 600 characters."
        onSubmit={submit}
        headingRef={selection.headingRef}
      >
        <BaseContentField value={content} onValueChange={setContent} rows={9} />
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
    </WritingTool>
  );
}
