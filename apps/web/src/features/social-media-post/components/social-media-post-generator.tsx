import { useState } from 'react';

import { CopyButton } from '@/components/ui/copy-button';
import { isOverLimit, SelectField, TextAreaField } from '@/components/ui/fields';
import { BaseContentField, FieldGroup, GenerateActions, InputPanel } from '@/components/ui/tool-layout';
import { GenerationProblemAlert } from '@/lib/ai/components/generation-problem';
import { useBaseContent } from '@/lib/writing-tools/base-content-state';
import { OutputLimit } from '@/lib/writing-tools/components/output-limit';
import { OutputPanel } from '@/lib/writing-tools/components/output-panel';
import { useHistorySelection, WritingTool } from '@/lib/writing-tools/components/writing-tool';
import { useGenerationHistory } from '@/lib/writing-tools/get-generation-history';
import { useGeneration } from '@/lib/writing-tools/use-generation';

import {
  formatOptions,
  personaOptions,
  socialMediaPostInputOf,
  socialMediaPostTexts,
  summarizeTexts,
  type Persona,
  type PostFormat,
} from '../generation';
import styles from './social-media-post-generator.module.css';

const filled = (text: string) => text.trim() !== '' && !isOverLimit(text);

/**
 * Spec §2 Social post: paste content and Summarize; the summary is shown (and can be edited);
 * then a description, Format, Persona and Generate; the post is shown with a copy control.
 */
export function SocialMediaPostGenerator() {
  const [content, setContent] = useBaseContent();
  const [summary, setSummary] = useState('');
  const [description, setDescription] = useState('');
  const [format, setFormat] = useState<PostFormat>(200);
  const [persona, setPersona] = useState<Persona>('CEO');
  const summarizer = useGeneration('summarize', summarizeTexts);
  const post = useGeneration('social-media-post', socialMediaPostTexts);
  const selection = useHistorySelection(useGenerationHistory('social-media-post'), {
    titleOf: (record) => socialMediaPostInputOf(record).description,
    restore: (record) => {
      const input = socialMediaPostInputOf(record);
      summarizer.restore(null);
      setContent(input.content);
      setSummary(input.summary);
      setDescription(input.description);
      setFormat(input.format);
      setPersona(input.persona);
      post.restore(record.output);
    },
  });

  const summarizing = summarizer.isGenerating;
  const canSummarize = filled(content);
  // Spec §5: the post generator also needs the description.
  const canGenerate = filled(content) && filled(summary) && filled(description) && !summarizing;

  async function runSummarize() {
    if (!canSummarize || summarizing) return;
    const output = await summarizer.generate({ documentText: content });
    if (output) setSummary(output.text);
  }

  function stopSummarize() {
    // Keep what was written so far: it can be edited like any summary.
    setSummary(summarizer.state.text);
    summarizer.cancel();
  }

  function submit() {
    if (!canGenerate || post.isGenerating) return;
    selection.clearSelection();
    void post.generate({ summary, content, description, format, persona });
  }

  function clear() {
    setContent('');
    setSummary('');
    setDescription('');
    summarizer.restore(null);
  }

  const postText = post.state.output?.text ?? post.state.text;
  return (
    <WritingTool history={selection.historyProps}>
      <InputPanel
        title="Build the post"
        description="First a summary of your content, then what the post should do."
        onSubmit={submit}
        headingRef={selection.headingRef}
      >
        <FieldGroup title="1. Summarize the content">
          <BaseContentField value={content} onValueChange={setContent} rows={8} />
          <GenerateActions
            label="Summarize"
            variant="primary"
            ready={canSummarize}
            isGenerating={summarizing}
            onStop={stopSummarize}
            onGenerate={() => void runSummarize()}
          />
          {summarizer.state.problem ? <GenerationProblemAlert problem={summarizer.state.problem} /> : null}
          <TextAreaField
            label="Summary"
            subject="The summary"
            hint={
              summarizing
                ? 'GEM is writing the summary…'
                : 'Made by Summarize. Edit it as you like before generating the post.'
            }
            value={summarizing ? summarizer.state.text : summary}
            onValueChange={setSummary}
            readOnly={summarizing}
            rows={6}
          />
          <p className="visually-hidden" role="status">
            {summarizer.state.status === 'succeeded' ? 'The summary is ready.' : ''}
          </p>
        </FieldGroup>
        <FieldGroup title="2. Shape the post">
          <TextAreaField
            label="Describe the post"
            subject="The description"
            hint="What should the post achieve, and for whom? For example: invite clients to our ESG webinar."
            value={description}
            onValueChange={setDescription}
            rows={3}
          />
          <div className={styles.selects}>
            <SelectField label="Format" value={format} options={formatOptions} onValueChange={setFormat} />
            <SelectField
              label="Persona"
              value={persona}
              options={personaOptions}
              onValueChange={setPersona}
            />
          </div>
          <GenerateActions ready={canGenerate} isGenerating={post.isGenerating} onClear={clear} />
        </FieldGroup>
      </InputPanel>
      <OutputPanel
        state={post.state}
        onStop={post.cancel}
        placeholder="Summarize your content, describe the post, then choose Generate. The post appears here as GEM writes it."
        actions={
          <>
            <CopyButton text={postText} />
            <OutputLimit
              text={postText}
              limit={format}
              unit="words"
              shortened={post.state.output?.shortened}
              truncated={post.state.output?.truncated}
            />
          </>
        }
      />
    </WritingTool>
  );
}
