import { qrTargetOf } from '@gem/contracts/campaign-pack';
import type { Campaign } from '@gem/contracts/campaigns';
import type { QrSettings } from '@gem/contracts/qr-settings';
import { useId, useMemo, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DownloadButton, saveFile, type DownloadFile } from '@/components/ui/download-button';
import { AlertIcon, DownloadIcon } from '@/components/ui/icons';
import { Panel } from '@/components/ui/panel';
import { QrPreview } from '@/components/ui/qr-preview';
import { SliderField } from '@/components/ui/slider-field';
import { briefFileName } from '@/lib/brief-export/file-name';
import { formatInteger, formatOneDecimal } from '@/lib/format-number';
import { encodeQr } from '@/lib/qr/encode-qr';
import { computeQrLayout } from '@/lib/qr/qr-layout';
import { PRINT_DPI, QR_DPI, QR_PADDING, QR_SIZE, QUIET_ZONE_MODULES } from '@/lib/qr/qr-settings';
import { renderQrSvg } from '@/lib/qr/render-qr';

import { useUpdateCampaign } from '../api/update-campaign';
import { canEdit } from '../campaign-labels';
import { problemText } from '../problem-text';
import styles from './campaign-qr.module.css';
import { buildPackQr, defaultQrSettings } from './pack-qr';

const mm = (points: number) => `${formatOneDecimal((points * 25.4) / 72)} mm`;

// The QR tool's words for each setting.
const sizeText = (size: number) => `${size} pt · ${mm(size)}`;
const paddingText = (padding: number) => (padding === 0 ? '0 pt · none' : `${padding} pt · ${mm(padding)}`);
const dpiText = (dpi: number) => `${dpi} DPI${dpi >= PRINT_DPI ? ' · print quality' : ''}`;

/** What the QR tool starts with, for a target no code can hold (the sliders still need values). */
const TOOL_START: QrSettings = { size: QR_SIZE.initial, padding: QR_PADDING.initial, dpi: QR_DPI.initial };

const same = (a: QrSettings, b: QrSettings) =>
  a.size === b.size && a.padding === b.padding && a.dpi === b.dpi;

/**
 * 'Spring Webinar QR code.png': the campaign's name made safe for a file name, as the pack's
 * files are named.
 */
export const qrFileName = (campaignName: string, extension: 'png' | 'svg'): string =>
  briefFileName(`${campaignName} QR code`, extension);

/** The UTM tags of a link, in its order ('utm_source' → 'qr'). */
function utmTags(link: string): [string, string][] {
  try {
    return [...new URL(link).searchParams].filter(([name]) => name.toLowerCase().startsWith('utm_'));
  } catch {
    return [];
  }
}

/**
 * 'Hand it over' (issue 29): the QR code of the campaign's landing page, with its UTM tags, as
 * the pack holds it. Its owner and editors set its size, padding and resolution with the QR
 * tool's sliders and save them with the campaign (or go back to the defaults); anyone who may
 * read the campaign sees it and downloads it as PNG or SVG.
 */
export function CampaignQr({ campaign }: { campaign: Campaign }) {
  const headingId = useId();
  const target = qrTargetOf(campaign.landingUrl, campaign.name);
  return (
    <Panel as="section" className={styles.qr} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.title}>
        QR code
      </h3>
      {target ? (
        <QrCodeOf campaign={campaign} target={target} />
      ) : (
        <p className={styles.hint}>
          No landing page yet: set the campaign&rsquo;s <strong>Landing page</strong> in its{' '}
          <a href="#campaign-settings">settings</a> to get a QR code that leads to it.
        </p>
      )}
    </Panel>
  );
}

function QrCodeOf({ campaign, target }: { campaign: Campaign; target: string }) {
  const linkId = useId();
  const editable = canEdit(campaign.role);
  const update = useUpdateCampaign(campaign.id);
  const defaults = useMemo(() => defaultQrSettings(target), [target]);
  const saved = campaign.qr ?? defaults ?? TOOL_START;
  const [draft, setDraft] = useState<QrSettings | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const shown = editable && draft ? draft : saved;
  const { size, padding, dpi } = shown;

  const encoding = useMemo(() => encodeQr(target), [target]);
  const layout = useMemo(
    () => (encoding.ok ? computeQrLayout(encoding.matrix.size, size, padding, dpi) : null),
    [encoding, size, padding, dpi],
  );
  const current = encoding.ok && layout?.fits ? { matrix: encoding.matrix, layout } : null;
  const tags = utmTags(target);
  const changed = !same(shown, saved);

  function change(key: keyof QrSettings) {
    return (value: number) => {
      setDraft({ ...shown, [key]: value });
      setDone(null);
      setDownloadError(null);
      if (update.isError) update.reset();
    };
  }

  async function save(qr: QrSettings | null) {
    setDone(null);
    try {
      await update.mutateAsync({ qr });
      setDraft(null);
      setDone(
        qr
          ? 'Saved. The pack’s QR code is made with these settings.'
          : 'Saved. The QR code is made with the defaults again.',
      );
    } catch {
      // Said under the buttons, in the server's words; the sliders stay where they were.
    }
  }

  async function downloadPng() {
    setPreparing(true);
    setDownloadError(null);
    setDone(null);
    try {
      const qr = await buildPackQr(target, shown);
      if (!qr) return;
      saveFile({
        blob: new Blob([qr.png as Uint8Array<ArrayBuffer>], { type: 'image/png' }),
        name: qrFileName(campaign.name, 'png'),
      });
      setDone(`PNG downloaded: ${qrFileName(campaign.name, 'png')}.`);
    } catch {
      setDownloadError('The PNG could not be made in this browser. Download the SVG instead.');
    } finally {
      setPreparing(false);
    }
  }

  function svgFile(): DownloadFile | null {
    if (!current) return null;
    const svg = renderQrSvg(current.matrix, current.layout, size, padding);
    const name = qrFileName(campaign.name, 'svg');
    setDone(`SVG downloaded: ${name}.`);
    setDownloadError(null);
    return { blob: new Blob([svg], { type: 'image/svg+xml' }), name };
  }

  const outerPoints = size + 2 * padding;
  const saving = update.isPending;
  const whose = campaign.qr ? 'The campaign’s own settings' : 'The defaults';

  return (
    <div className={styles.body}>
      <div className={styles.stageColumn}>
        <div className={styles.stage}>
          {current ? (
            <div className={styles.code}>
              <QrPreview
                matrix={current.matrix}
                layout={current.layout}
                label={`QR code for the landing page: ${target}`}
              />
            </div>
          ) : (
            <p className={styles.unfit} role={encoding.ok ? 'alert' : 'status'}>
              {encoding.ok
                ? `This link needs ${encoding.matrix.size} × ${encoding.matrix.size} modules, more than the ${formatInteger(Math.floor((size * dpi) / 72))} pixels this size gives at ${dpi} DPI. Increase the size or the resolution.`
                : encoding.message}
            </p>
          )}
        </div>
        {current ? (
          <p className={styles.facts}>
            PNG {formatInteger(current.layout.edgePx)} × {formatInteger(current.layout.edgePx)} px, printed{' '}
            {mm(outerPoints)} at {dpi} DPI
          </p>
        ) : null}
      </div>

      <div className={styles.details}>
        <div className={styles.target}>
          <p id={linkId} className={styles.label}>
            The link it encodes
          </p>
          <a className={styles.link} href={target} target="_blank" rel="noreferrer" aria-describedby={linkId}>
            {target}
          </a>
          {tags.length > 0 ? (
            <dl className={styles.tags} aria-label="UTM tags">
              {tags.map(([name, value]) => (
                <div key={name} className={styles.tag}>
                  <dt>{name}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </div>

        {current && current.layout.quietZoneModules < QUIET_ZONE_MODULES ? (
          <div className={styles.warning} role="note">
            <AlertIcon />
            <p>
              The quiet zone is under {QUIET_ZONE_MODULES} modules: add padding, or leave that much white
              space around the code where you place it.
            </p>
          </div>
        ) : null}

        <div className={styles.settings}>
          <div className={styles.settingsHead}>
            <p className={styles.label}>Settings</p>
            <Badge tone={campaign.qr ? 'brand' : 'neutral'}>{whose}</Badge>
          </div>
          {editable ? (
            <>
              <SliderField
                label="Size"
                unit="pt"
                {...QR_SIZE}
                value={size}
                onValueChange={change('size')}
                valueText={sizeText(size)}
              >
                <p>The code itself, without padding, in points (72 to an inch).</p>
              </SliderField>
              <SliderField
                label="Padding"
                unit="pt"
                {...QR_PADDING}
                value={padding}
                onValueChange={change('padding')}
                valueText={paddingText(padding)}
              >
                <p>White space added on every side. Scanners need a light border of 4 modules.</p>
              </SliderField>
              <SliderField
                label="Resolution"
                unit="DPI"
                {...QR_DPI}
                value={dpi}
                onValueChange={change('dpi')}
                valueText={dpiText(dpi)}
                marks={[72, 150, 300, 600]}
              >
                <p>300 DPI or more is recommended for print.</p>
              </SliderField>
            </>
          ) : (
            <dl className={styles.readSettings}>
              <div>
                <dt>Size</dt>
                <dd>{sizeText(size)}</dd>
              </div>
              <div>
                <dt>Padding</dt>
                <dd>{paddingText(padding)}</dd>
              </div>
              <div>
                <dt>Resolution</dt>
                <dd>{dpiText(dpi)}</dd>
              </div>
            </dl>
          )}
        </div>

        <div className={styles.actions}>
          {editable ? (
            <>
              <Button
                variant="brand"
                disabled={!changed || saving || !current}
                aria-busy={saving || undefined}
                onClick={() => void save(shown)}
              >
                Save settings
              </Button>
              {campaign.qr ? (
                <Button variant="secondary" disabled={saving} onClick={() => void save(null)}>
                  Use the defaults
                </Button>
              ) : null}
              {changed ? (
                <Button variant="secondary" disabled={saving} onClick={() => setDraft(null)}>
                  Undo changes
                </Button>
              ) : null}
            </>
          ) : null}
          <Button
            variant="secondary"
            disabled={!current || preparing}
            aria-busy={preparing || undefined}
            onClick={() => void downloadPng()}
          >
            <DownloadIcon />
            {preparing ? 'Preparing PNG…' : 'Download PNG'}
          </Button>
          <DownloadButton variant="secondary" file={svgFile} disabled={!current}>
            <DownloadIcon />
            Download SVG
          </DownloadButton>
        </div>
        <p className={styles.status} role="status">
          {done ??
            (editable && changed ? 'Not saved yet: the pack makes its QR code with the saved settings.' : '')}
        </p>
        {update.isError || downloadError ? (
          <p className={styles.error} role="alert">
            {downloadError ??
              problemText(update.error, 'The QR code’s settings could not be saved. Try again.')}
          </p>
        ) : null}
      </div>
    </div>
  );
}
