import type {
  Analysis,
  AnalysisFigure,
  AnalysisSentence,
  CheckedText,
} from '@gem/contracts/campaign-audience-builder';
import { DEMO_ANSWER_TEXT } from '@gem/contracts/ai-status';
import { Fragment } from 'react';

import { Badge } from '@/components/ui/badge';
import { AlertIcon, CheckIcon } from '@/components/ui/icons';
import { Notice } from '@/components/ui/notice';
import { Split } from '@/components/ui/split';
import { formatInteger } from '@/lib/format-number';

import { rateOf } from '../format';
import styles from './ai-analysis.module.css';
import sectionStyles from './audience-results.module.css';

/**
 * The AI's analysis (issue 27, item 8): the model's text in its own language (Polish, as the spec
 * asks, on an English page: labelled so), with each figure GEM checked against the CRM marked. A
 * figure that matches gets a check; one that contradicts the CRM is crossed out, with the CRM's
 * numbers beside it. Marks are icons and words, not colour alone.
 */

const languageNames: Record<Analysis['language'], string> = { pl: 'Polish', en: 'English' };

/** "Insurance, 12 of 52 responded (23.1%)", the CRM's numbers of what a figure was read against. */
function factText(fact: NonNullable<AnalysisFigure['fact']>): string {
  const { subject, responders, members } = fact;
  return `${subject}, ${formatInteger(responders)} of ${formatInteger(members)} responded (${rateOf(responders, members)})`;
}

/** The labels beside the section's title: the answer's language when it is not the page's, and a demo answer. */
export function AnalysisLabels({ language, demo }: { language: Analysis['language']; demo: boolean }) {
  if (language === 'en' && !demo) return null;
  return (
    <div className={styles.labels}>
      {demo ? <Badge>{DEMO_ANSWER_TEXT}</Badge> : null}
      {language === 'en' ? null : <Badge>In {languageNames[language]}</Badge>}
    </div>
  );
}

/** The explanation and the approach, with what GEM's check found said first. */
export function AnalysisBody({ analysis }: { analysis: Analysis }) {
  return (
    <>
      <CheckSummary analysis={analysis} />
      <Split>
        <div className={sectionStyles.analysisPart}>
          <h4 className={sectionStyles.partTitle}>Explanation</h4>
          <CheckedParagraphs text={analysis.explanation} language={analysis.language} />
        </div>
        <div className={sectionStyles.analysisPart}>
          <h4 className={sectionStyles.partTitle}>Approach</h4>
          <CheckedParagraphs text={analysis.approach} language={analysis.language} />
        </div>
      </Split>
    </>
  );
}

/** How many figures match the CRM, contradict it, or could not be checked; nothing when there are none. */
function CheckSummary({ analysis }: { analysis: Analysis }) {
  const figures = [analysis.explanation, analysis.approach]
    .flatMap((text) => text.paragraphs.flat())
    .flatMap((sentence) => sentence.figures);
  if (figures.length === 0) return null;
  const count = (verdict: AnalysisFigure['verdict']) => figures.filter((f) => f.verdict === verdict).length;
  const [matching, wrong, unchecked] = [count('matches'), count('contradicts'), count('unchecked')];
  const parts = [
    wrong > 0
      ? `${wrong} ${wrong === 1 ? 'does' : 'do'} not match (crossed out, with the CRM’s numbers beside ${wrong === 1 ? 'it' : 'them'})`
      : null,
    matching > 0 ? `${matching} ${matching === 1 ? 'matches' : 'match'} (marked with a check)` : null,
    unchecked > 0 ? `${unchecked} could not be checked` : null,
  ].filter(Boolean);
  return (
    <Notice tone={wrong > 0 ? 'brand' : 'neutral'}>
      <p className={styles.summary}>
        {wrong > 0 ? (
          <AlertIcon className={styles.summaryIcon} />
        ) : (
          <CheckIcon className={styles.summaryIcon} />
        )}
        <span>GEM checked the figures against the CRM: {parts.join(', ')}.</span>
      </p>
    </Notice>
  );
}

function CheckedParagraphs({ text, language }: { text: CheckedText; language: Analysis['language'] }) {
  return (
    <div className={sectionStyles.prose} lang={language}>
      {text.paragraphs.map((sentences, index) => (
        <p key={index}>
          {sentences.map((sentence, at) => (
            <Fragment key={at}>
              {at > 0 ? ' ' : null}
              <Sentence sentence={sentence} />
            </Fragment>
          ))}
        </p>
      ))}
    </div>
  );
}

/** A sentence's text, its figures marked. */
function Sentence({ sentence }: { sentence: AnalysisSentence }) {
  const { text, figures } = sentence;
  return (
    <>
      {figures.map((figure, index) => (
        <Fragment key={index}>
          {text.slice(index === 0 ? 0 : figures[index - 1]!.end, figure.start)}
          <Figure text={text.slice(figure.start, figure.end)} figure={figure} />
        </Fragment>
      ))}
      {text.slice(figures.at(-1)?.end ?? 0)}
    </>
  );
}

function Figure({ text, figure }: { text: string; figure: AnalysisFigure }) {
  const { fact } = figure;
  if (figure.verdict === 'matches') {
    return (
      <span className={styles.matches} title={fact ? `Matches the CRM: ${factText(fact)}` : undefined}>
        {text}
        <CheckIcon className={styles.checkIcon} />
        <span className="visually-hidden" lang="en">
          {' '}
          (matches the CRM)
        </span>
      </span>
    );
  }
  if (figure.verdict === 'contradicts') {
    return (
      <>
        <span className={styles.contradicts}>{text}</span>{' '}
        <span className={styles.fact} lang="en">
          <AlertIcon className={styles.factIcon} />
          <span className="visually-hidden">does not match the </span>
          {fact ? `CRM: ${factText(fact)}` : 'CRM’s numbers'}
        </span>
      </>
    );
  }
  return <>{text}</>;
}
