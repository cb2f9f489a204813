import type {
  GenerationHistoryResponse,
  GenerationOutput,
  GenerationRecord,
  WritingToolInput,
  WritingToolName,
} from '@gem/contracts/writing-tools';
import type { UseQueryResult } from '@tanstack/react-query';
import { useRef, useState, type ReactNode, type RefObject } from 'react';

import { isOverLimit } from '@/components/ui/fields';
import {
  BaseContentField,
  GenerateActions,
  InputPanel,
  ReturnToMenu,
  ToolStack,
  ToolWorkspace,
} from '@/components/ui/tool-layout';

import { useAiNotConfigured, useDemoAi } from '@/lib/ai/get-ai-status';
import { AiServiceNotice } from '@/lib/ai/components/ai-service-notice';
import { AiAllowanceLine } from '@/lib/ai/components/ai-allowance-line';
import type { GenerationTexts } from '@/lib/ai/generation-errors';
import { useBaseContent } from '../base-content-state';
import { useGenerationHistory } from '../get-generation-history';
import { useGeneration, type GenerationState } from '../use-generation';
import { historyEntry, HistoryList, type HistoryListProps } from './history-list';
import { OutputPanel } from './output-panel';

/**
 * An AI writing tool's page body: the not-configured notice when it applies, the input and
 * output panels side by side (`children`), the user's recent outputs, and the way back.
 */
export function WritingTool({ history, children }: { history: HistoryListProps; children: ReactNode }) {
  const notConfigured = useAiNotConfigured();
  const demo = useDemoAi();
  return (
    <ToolStack>
      {notConfigured ? <AiServiceNotice /> : demo ? <AiServiceNotice kind="demo" /> : null}
      <AiAllowanceLine />
      <ToolWorkspace>{children}</ToolWorkspace>
      <HistoryList {...history} />
      <ReturnToMenu />
    </ToolStack>
  );
}

type HistorySelectionOptions = {
  /** What a person recognises an earlier output by: its task, description or content. */
  titleOf: (record: GenerationRecord) => string;
  /** Puts the record's inputs back in the fields and its output in the output panel. */
  restore: (record: GenerationRecord) => void;
};

export type HistorySelection = {
  /** For the input panel's heading, which takes focus when an earlier output comes back. */
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** A new generation started: no history entry is the one shown any more. */
  clearSelection: () => void;
  /** For WritingTool's history list. */
  historyProps: HistoryListProps;
};

/** Choosing one of the recent outputs restores it, marks it as shown and focuses the inputs. */
export function useHistorySelection(
  history: UseQueryResult<GenerationHistoryResponse>,
  { titleOf, restore }: HistorySelectionOptions,
): HistorySelection {
  const [shownId, setShownId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const items = history.data?.items;

  function select(id: string) {
    const record = items?.find((item) => item.id === id);
    if (!record) return;
    restore(record);
    setShownId(id);
    headingRef.current?.focus();
  }

  return {
    headingRef,
    clearSelection: () => setShownId(null),
    historyProps: {
      entries: items?.map((record) => historyEntry(record, titleOf(record))),
      isError: history.isError,
      onRetry: () => void history.refetch(),
      onSelect: select,
      selectedId: shownId,
    },
  };
}

/** What useContentTool needs of a tool's generation (useGeneration's result). */
type ContentGeneration = {
  isGenerating: boolean;
  generate: (input: { content: string }) => Promise<unknown>;
  restore: (output: GenerationOutput | null) => void;
};

export type ContentTool = HistorySelection & {
  content: string;
  setContent: (content: string) => void;
  /** There is content, within the input limit. */
  ready: boolean;
  isGenerating: boolean;
  submit: () => void;
};

/**
 * The input side of a tool that takes the base content only (paid ads, teaser): the field,
 * Generate once there is content, and the history bringing back earlier content and output.
 */
function useContentTool(
  generation: ContentGeneration,
  history: UseQueryResult<GenerationHistoryResponse>,
  contentOf: (record: GenerationRecord) => string,
): ContentTool {
  const [content, setContent] = useBaseContent();
  const selection = useHistorySelection(history, {
    titleOf: contentOf,
    restore: (record) => {
      setContent(contentOf(record));
      generation.restore(record.output);
    },
  });
  const ready = content.trim() !== '' && !isOverLimit(content);
  return {
    ...selection,
    content,
    setContent,
    ready,
    isGenerating: generation.isGenerating,
    submit() {
      if (!ready || generation.isGenerating) return;
      selection.clearSelection();
      void generation.generate({ content });
    },
  };
}

/** The input panel of a content-only tool: 'Base content', the field, Generate and Clear fields. */
function ContentInputPanel({ tool, description }: { tool: ContentTool; description: string }) {
  return (
    <InputPanel
      title="Base content"
      description={description}
      onSubmit={tool.submit}
      headingRef={tool.headingRef}
    >
      <BaseContentField value={tool.content} onValueChange={tool.setContent} />
      <GenerateActions
        ready={tool.ready}
        isGenerating={tool.isGenerating}
        onClear={() => tool.setContent('')}
      />
    </InputPanel>
  );
}

/** The writing tools whose only input is the base content (paid ads, teaser). */
export type ContentToolName = {
  [N in WritingToolName]: { content: string } extends WritingToolInput<N> ? N : never;
}[WritingToolName];

export type ContentWritingToolState = ContentTool & {
  /** The generation's state, for the output panel and the tool's actions. */
  state: GenerationState;
  cancel: () => void;
};

/** A content-only tool's generation, its history and its input side, by the tool's name. */
export function useContentWritingTool(
  name: ContentToolName,
  texts: GenerationTexts,
  contentOf: (record: GenerationRecord) => string,
): ContentWritingToolState {
  const generation = useGeneration(name, texts);
  const tool = useContentTool(generation, useGenerationHistory(name), contentOf);
  return { ...tool, state: generation.state, cancel: generation.cancel };
}

type ContentWritingToolProps = {
  tool: ContentWritingToolState;
  /** Under 'Base content': what GEM does with it. */
  description: string;
  /** In the output panel before anything has been generated. */
  placeholder: string;
  /** Under the output: copy, send, counts. */
  actions: ReactNode;
  /** How the finished output is shown, when it is more than formatted text. */
  children?: ReactNode;
};

/** A content-only tool's page body: the base content in, the output panel, the history. */
export function ContentWritingTool({
  tool,
  description,
  placeholder,
  actions,
  children,
}: ContentWritingToolProps) {
  return (
    <WritingTool history={tool.historyProps}>
      <ContentInputPanel tool={tool} description={description} />
      <OutputPanel state={tool.state} onStop={tool.cancel} placeholder={placeholder} actions={actions}>
        {children}
      </OutputPanel>
    </WritingTool>
  );
}
