import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DownloadButton, type DownloadFile } from '@/components/ui/download-button';
import { TextAreaField } from '@/components/ui/fields';
import { AlertIcon, DownloadIcon, PrinterIcon } from '@/components/ui/icons';
import { OutputSurface } from '@/components/ui/output-surface';
import { QrPreview } from '@/components/ui/qr-preview';
import { SliderField } from '@/components/ui/slider-field';
import { InputPanel, ToolWorkspace } from '@/components/ui/tool-layout';
import { formatInteger, formatOneDecimal } from '@/lib/format-number';
import { encodeQr, MAX_QR_BYTES } from '@/lib/qr/encode-qr';
import { computeQrLayout, paddingForQuietZone } from '@/lib/qr/qr-layout';
import { PRINT_DPI, QR_DPI, QR_PADDING, QR_SIZE, QUIET_ZONE_MODULES } from '@/lib/qr/qr-settings';
import { renderQrPng, renderQrSvg } from '@/lib/qr/render-qr';

import styles from './qr-code-generator.module.css';

const mm = (points: number) => `${formatOneDecimal((points * 25.4) / 72)} mm`;

// Modules smaller than this are hard for phone cameras to read in print.
const SMALLEST_GOOD_MODULE_MM = 0.33;

type Prepared = DownloadFile & { bytes: number };

// A QR code holds bytes: Polish letters take two, an emoji four.
const utf8Bytes = { of: (value: string) => new TextEncoder().encode(value).length, unit: 'bytes' };

/** Spec §2 and §9: the QR code generator, entirely in the browser. */
export function QrCodeGenerator() {
  const outputId = useId();
  const [text, setText] = useState('');
  const [size, setSize] = useState<number>(QR_SIZE.initial);
  const [padding, setPadding] = useState<number>(QR_PADDING.initial);
  const [dpi, setDpi] = useState<number>(QR_DPI.initial);
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [prepareError, setPrepareError] = useState<string | null>(null);
  // Each change starts a new generation; a Prepare still running for an older one is dropped.
  const generation = useRef(0);

  // Typing stays smooth with long text: the preview may lag a keystroke behind.
  const previewText = useDeferredValue(text);
  const encoding = useMemo(() => encodeQr(previewText), [previewText]);
  const layout = useMemo(
    () => (encoding.ok ? computeQrLayout(encoding.matrix.size, size, padding, dpi) : null),
    [encoding, size, padding, dpi],
  );
  const current = encoding.ok && layout?.fits ? { matrix: encoding.matrix, layout } : null;

  // Spec §4: changing the text, size, padding or resolution clears the prepared image.
  function changed<T>(set: (value: T) => void) {
    return (value: T) => {
      set(value);
      generation.current += 1;
      setPrepared(null);
      setPreparing(false);
      setPrepareError(null);
    };
  }

  async function prepare() {
    const mine = ++generation.current;
    const encoded = encodeQr(text);
    if (!encoded.ok) return;
    const pngLayout = computeQrLayout(encoded.matrix.size, size, padding, dpi);
    if (!pngLayout.fits) return;
    setPreparing(true);
    setPrepareError(null);
    try {
      const png = await renderQrPng(encoded.matrix, pngLayout, dpi);
      if (mine !== generation.current) return;
      setPrepared({
        blob: new Blob([png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        name: `${fileStem(text)}.png`,
        bytes: png.length,
      });
    } catch {
      if (mine === generation.current) {
        setPrepareError('The PNG could not be made in this browser. Download the SVG instead.');
      }
    } finally {
      if (mine === generation.current) setPreparing(false);
    }
  }

  function svgFile(): DownloadFile | null {
    const encoded = encodeQr(text);
    if (!encoded.ok) return null;
    const svgLayout = computeQrLayout(encoded.matrix.size, size, padding, dpi);
    if (!svgLayout.fits) return null;
    const svg = renderQrSvg(encoded.matrix, svgLayout, size, padding);
    return { blob: new Blob([svg], { type: 'image/svg+xml' }), name: `${fileStem(text)}.svg` };
  }

  const outerPoints = size + 2 * padding;
  const edgePx = Math.round((outerPoints * dpi) / 72);
  const suggestedPadding =
    encoding.ok && layout && layout.quietZoneModules < QUIET_ZONE_MODULES
      ? paddingForQuietZone(encoding.matrix.size, size, dpi)
      : null;

  return (
    <ToolWorkspace>
      <InputPanel
        title="Your QR code"
        description="Paste a link or any text. The preview updates as you type; nothing leaves your browser."
        onSubmit={() => void prepare()}
      >
        <TextAreaField
          label="Text or link"
          value={text}
          onValueChange={changed(setText)}
          limit={MAX_QR_BYTES}
          measure={utf8Bytes}
          rows={4}
          placeholder="https://www.example.com/events/q3-webinar"
          spellCheck={false}
        />

        <SliderField
          label="Size"
          unit="pt"
          {...QR_SIZE}
          value={size}
          onValueChange={changed(setSize)}
          valueText={`${size} pt · ${mm(size)}`}
        >
          <p>The code itself, without padding, in points (72 to an inch).</p>
        </SliderField>

        <SliderField
          label="Padding"
          unit="pt"
          {...QR_PADDING}
          value={padding}
          onValueChange={changed(setPadding)}
          valueText={padding === 0 ? '0 pt · none' : `${padding} pt · ${mm(padding)}`}
        >
          <p>White space added on every side. Scanners need a light border of 4 modules.</p>
        </SliderField>

        <SliderField
          label="Resolution"
          unit="DPI"
          {...QR_DPI}
          value={dpi}
          onValueChange={changed(setDpi)}
          valueText={`${dpi} DPI${dpi >= PRINT_DPI ? ' · print quality' : ''}`}
          marks={[72, 150, 300, 600]}
        >
          <p className={dpi >= PRINT_DPI ? styles.noteGood : styles.noteStrong}>
            <PrinterIcon />
            {dpi >= PRINT_DPI
              ? '300 DPI or more is recommended for print. This resolution is ready for print.'
              : '300 DPI or more is recommended for print. Below that, use the PNG on screens only.'}
          </p>
          <p>
            The PNG is (size + 2 × padding) × DPI ÷ 72 pixels on each side: here ({size} + 2 × {padding}) ×{' '}
            {dpi} ÷ 72 = <strong>{formatInteger(edgePx)} px</strong>. Every module is a whole number of
            pixels; the few pixels left over go to the margin. The file records {dpi} DPI in its pHYs chunk,
            so it prints at {mm(outerPoints)} wide.
          </p>
        </SliderField>
      </InputPanel>

      <OutputSurface
        className={styles.output}
        heading="Preview"
        headingId={`${outputId}-preview`}
        headingAside={current ? <Badge>Error correction L</Badge> : null}
      >
        <div className={styles.stage}>
          {current ? (
            <QrPreview
              matrix={current.matrix}
              layout={current.layout}
              label={`QR code for: ${excerpt(previewText)}`}
            />
          ) : (
            <div className={styles.empty} role={encoding.ok ? 'alert' : 'status'}>
              <span className={styles.emptyArt} aria-hidden="true" />
              <p>
                {encoding.ok
                  ? `This text needs ${encoding.matrix.size} × ${encoding.matrix.size} modules, more than the ${formatInteger(Math.floor((size * dpi) / 72))} pixels this size gives at ${dpi} DPI. Increase the size or the resolution, or shorten the text.`
                  : encoding.message}
              </p>
            </div>
          )}
        </div>

        {current ? (
          <dl className={styles.facts}>
            <div>
              <dt>PNG</dt>
              <dd>
                {formatInteger(current.layout.edgePx)} × {formatInteger(current.layout.edgePx)} px
              </dd>
            </div>
            <div>
              <dt>Printed</dt>
              <dd>
                {mm(outerPoints)} at {dpi} DPI
              </dd>
            </div>
            <div>
              <dt>Modules</dt>
              <dd>
                {current.matrix.size} × {current.matrix.size}, {current.layout.modulePx} px each
              </dd>
            </div>
          </dl>
        ) : null}

        {current && current.layout.quietZoneModules < QUIET_ZONE_MODULES ? (
          <div className={styles.warning} role="note">
            <AlertIcon />
            <p>
              <strong>The quiet zone is {formatModules(current.layout.quietZoneModules)}.</strong> Scanners
              need a light border of at least {QUIET_ZONE_MODULES} modules around the code.{' '}
              {suggestedPadding !== null
                ? `Set the padding to ${suggestedPadding} pt or more, or leave that much white space around the code where you place it.`
                : 'Leave at least that much white space around the code where you place it.'}
            </p>
          </div>
        ) : null}
        {current && current.layout.moduleMm < SMALLEST_GOOD_MODULE_MM && dpi >= PRINT_DPI ? (
          <div className={styles.warning} role="note">
            <AlertIcon />
            <p>
              <strong>Modules print at {current.layout.moduleMm.toFixed(2)} mm.</strong> Phones read codes
              more reliably at {SMALLEST_GOOD_MODULE_MM} mm or more: increase the size, or shorten the text (a
              short link helps).
            </p>
          </div>
        ) : null}

        <div className={styles.actions}>
          {prepared ? (
            <DownloadButton variant="brand" file={() => prepared}>
              <DownloadIcon />
              Download QR Code
            </DownloadButton>
          ) : (
            <Button
              onClick={() => void prepare()}
              disabled={!current || preparing}
              aria-busy={preparing || undefined}
            >
              {preparing ? 'Preparing…' : 'Prepare for Download'}
            </Button>
          )}
          <DownloadButton variant="secondary" file={svgFile} disabled={!current}>
            <DownloadIcon />
            Download SVG
          </DownloadButton>
        </div>
        <p className={styles.status} role="status">
          {prepareError ??
            (prepared
              ? `Your PNG is ready: ${prepared.name}, ${formatBytes(prepared.bytes)}.`
              : current
                ? 'Prepare the PNG for print, or take the SVG (vector, for print layouts).'
                : '')}
        </p>
      </OutputSurface>
    </ToolWorkspace>
  );
}

function formatModules(modules: number): string {
  if (modules === 0) return 'missing';
  const rounded = Math.round(modules * 10) / 10;
  return `${rounded} ${rounded === 1 ? 'module' : 'modules'}`;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${formatOneDecimal(bytes / 1024)} KB`;
}

function excerpt(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : chars.join('');
}

/** qr-www-example-com-events from https://www.example.com/events. */
function fileStem(text: string): string {
  const slug = text
    .trim()
    .replace(/^https?:\/\//i, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/gi, '-')
    // Runs are one dash by now.
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 40)
    .replace(/-$/, '');
  return slug ? `qr-${slug}` : 'qr-code';
}
