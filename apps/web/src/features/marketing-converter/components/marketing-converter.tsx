import { useId, useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DownloadButton } from '@/components/ui/download-button';
import { SelectField } from '@/components/ui/fields';
import { AlertIcon, DownloadIcon, EraseIcon } from '@/components/ui/icons';
import { InlineList } from '@/components/ui/inline-list';
import loadingOverlay from '@/components/ui/loading-overlay.module.css';
import { OutputPlaceholder, OutputSurface } from '@/components/ui/output-surface';
import { InputPanel, ToolWorkspace } from '@/components/ui/tool-layout';
import { formatInteger } from '@/lib/format-number';

import {
  captionLanguages,
  DEFAULT_CAPTION_LANGUAGE,
  INVALID_FILE_MESSAGE,
  MAX_VTT_BYTES,
  type CaptionLanguage,
} from '../caption-languages';
import { srtFileName, type ConversionStats } from '../convert-vtt-to-srt';
import { runConversion } from '../run-conversion';
import { describeProblem } from '../webvtt/parse-webvtt';
import { FileDropZone, formatFileSize } from './file-drop-zone';
import styles from './marketing-converter.module.css';

// The preview shows this many subtitles; the download has them all.
const PREVIEW_LIMIT = 200;

const converters = [{ value: 'vtt-to-srt', label: 'VTT to SRT' }] as const;

type Upload = { name: string; size: number };
type State =
  | { status: 'idle' }
  | { status: 'converting' }
  | { status: 'converted'; srt: string; preview: string; stats: ConversionStats }
  | { status: 'failed'; title: string; message: string };

/** Spec §2: the marketing converter (WebVTT → SRT), entirely in the browser. */
export function MarketingConverter() {
  const headingId = useId();
  const [converter, setConverter] = useState<(typeof converters)[number]['value']>('vtt-to-srt');
  const [language, setLanguage] = useState<CaptionLanguage>(DEFAULT_CAPTION_LANGUAGE);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [state, setState] = useState<State>({ status: 'idle' });
  const [resetKey, setResetKey] = useState(0);
  const attempt = useRef(0);

  async function onFile(file: File) {
    const mine = ++attempt.current;
    // Spec §5: only .vtt files; anything else gets the spec's message.
    if (!/\.vtt$/i.test(file.name)) {
      setUpload(null);
      setState({
        status: 'failed',
        title: INVALID_FILE_MESSAGE,
        message: `“${file.name}” is not a .vtt file.`,
      });
      setResetKey((key) => key + 1);
      return;
    }
    setUpload({ name: file.name, size: file.size });
    if (file.size > MAX_VTT_BYTES) {
      setState({
        status: 'failed',
        title: 'This file is too large',
        message: `“${file.name}” is ${formatFileSize(file.size)}; the converter takes files up to 20 MB. Split the captions into smaller files and convert them one by one.`,
      });
      return;
    }
    setState({ status: 'converting' });
    try {
      const conversion = await runConversion(await file.arrayBuffer(), PREVIEW_LIMIT);
      if (mine !== attempt.current) return;
      setState(
        conversion.ok
          ? { status: 'converted', srt: conversion.srt, preview: conversion.preview, stats: conversion.stats }
          : {
              status: 'failed',
              title: 'This file cannot be converted',
              message: describeProblem(conversion.problem),
            },
      );
    } catch {
      if (mine !== attempt.current) return;
      setState({
        status: 'failed',
        title: 'This file cannot be converted',
        message: 'The file could not be read. Check that it is a WebVTT caption file and try again.',
      });
    }
  }

  function clear() {
    attempt.current += 1;
    setUpload(null);
    setState({ status: 'idle' });
    setResetKey((key) => key + 1);
  }

  const converted = state.status === 'converted' ? state : null;
  const fileName = upload ? srtFileName(upload.name, language) : null;

  return (
    <ToolWorkspace>
      <InputPanel
        title="Captions to convert"
        description="Upload WebVTT captions (from Teams, Zoom, YouTube or your video editor) and get SRT subtitles, ready for LinkedIn, Premiere or a media player. Your file never leaves your browser."
        // Nothing to submit: the file converts as soon as it is chosen.
        onSubmit={() => undefined}
      >
        <div className={styles.selects}>
          <SelectField
            label="Converter"
            value={converter}
            options={converters}
            onValueChange={setConverter}
          />
          <SelectField
            label="Caption language"
            value={language}
            options={captionLanguages}
            onValueChange={setLanguage}
          />
        </div>
        <FileDropZone
          file={upload}
          onFile={(file) => void onFile(file)}
          disabled={state.status === 'converting'}
          resetKey={resetKey}
        />
        <ul className={styles.rules}>
          <li>Lines are wrapped at 47 characters, with at most 3 lines per subtitle.</li>
          <li>Longer captions become consecutive subtitles; no text is dropped.</li>
          <li>Bold, italic and underline stay; speaker names, notes and positions go.</li>
        </ul>
      </InputPanel>

      <OutputSurface
        heading="Converted preview"
        headingId={`${headingId}-output`}
        headingAside={converted ? <Badge>SRT · UTF-8</Badge> : null}
        aria-busy={state.status === 'converting'}
      >
        {state.status === 'failed' ? (
          <div className={styles.problem} role="alert">
            <AlertIcon />
            <div>
              <p className={styles.problemTitle}>{state.title}</p>
              <p className={styles.problemMessage}>{state.message}</p>
            </div>
          </div>
        ) : null}

        {converted ? (
          <>
            <InlineList className={styles.stats} aria-label="Conversion summary">
              <li>
                <strong>{formatInteger(converted.stats.cues)}</strong>{' '}
                {converted.stats.cues === 1 ? 'cue' : 'cues'} read
              </li>
              <li>
                <strong>{formatInteger(converted.stats.subtitles)}</strong>{' '}
                {converted.stats.subtitles === 1 ? 'subtitle' : 'subtitles'} written
              </li>
              {converted.stats.splitCues > 0 ? (
                <li>
                  <strong>{formatInteger(converted.stats.splitCues)}</strong> long{' '}
                  {converted.stats.splitCues === 1 ? 'cue' : 'cues'} split
                </li>
              ) : null}
              {converted.stats.emptyCues > 0 ? (
                <li>
                  <strong>{formatInteger(converted.stats.emptyCues)}</strong> empty{' '}
                  {converted.stats.emptyCues === 1 ? 'cue' : 'cues'} left out
                </li>
              ) : null}
            </InlineList>
            {converted.stats.subtitles === 0 ? (
              <OutputPlaceholder as="p">
                This file has no captions to convert: it holds no cues with text.
              </OutputPlaceholder>
            ) : (
              <pre
                className={styles.preview}
                tabIndex={0}
                aria-label={`Preview of ${fileName ?? 'the SRT file'}`}
              >
                {converted.preview}
              </pre>
            )}
            {converted.stats.subtitles > PREVIEW_LIMIT ? (
              <p className={styles.note}>
                Showing the first {PREVIEW_LIMIT} of {formatInteger(converted.stats.subtitles)} subtitles. The
                download has them all.
              </p>
            ) : null}
          </>
        ) : state.status === 'converting' ? (
          <OutputPlaceholder role="status">
            <span className={loadingOverlay.spinner} aria-hidden="true" />
            <p>Converting {upload?.name}…</p>
          </OutputPlaceholder>
        ) : state.status === 'idle' ? (
          <OutputPlaceholder>
            <p>The SRT subtitles appear here once you upload a .vtt file.</p>
          </OutputPlaceholder>
        ) : null}

        <div className={styles.actions}>
          <DownloadButton
            variant="brand"
            disabled={!converted || converted.stats.subtitles === 0}
            file={() =>
              converted && fileName
                ? {
                    blob: new Blob([converted.srt], { type: 'application/x-subrip;charset=utf-8' }),
                    name: fileName,
                  }
                : null
            }
          >
            <DownloadIcon />
            Download SRT
          </DownloadButton>
          <Button variant="secondary" onClick={clear} disabled={!upload && state.status === 'idle'}>
            <EraseIcon />
            Clear
          </Button>
          {converted && fileName ? <p className={styles.fileNote}>Saves as {fileName}</p> : null}
        </div>
      </OutputSurface>
    </ToolWorkspace>
  );
}
