import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { DownloadIcon } from '@/components/ui/icons';
import { downloadBriefDocx, downloadBriefExcel } from '@/lib/brief-export/brief-export';
import type { ExportableBrief } from '@/lib/brief-export/brief-values';
import { toast } from '@/lib/toast';

import styles from './brief-creator.module.css';

type Format = 'excel' | 'word';

const failures: Record<Format, string> = {
  excel: 'The Excel file could not be made. Try again.',
  word: 'The Word document could not be made. Try again.',
};

/** 'Export to Excel' and 'Export to Word'; the export libraries load on the first click. */
export function ExportButtons({ brief, disabled }: { brief: ExportableBrief; disabled: boolean }) {
  const [exporting, setExporting] = useState<Format | null>(null);

  async function exportAs(format: Format) {
    setExporting(format);
    try {
      await (format === 'excel' ? downloadBriefExcel(brief) : downloadBriefDocx(brief));
    } catch {
      toast.error(failures[format]);
    } finally {
      setExporting(null);
    }
  }

  return (
    <div className={styles.exports}>
      <Button
        variant="secondary"
        disabled={disabled || exporting !== null}
        aria-busy={exporting === 'excel' || undefined}
        onClick={() => void exportAs('excel')}
      >
        <DownloadIcon />
        Export to Excel
      </Button>
      <Button
        variant="secondary"
        disabled={disabled || exporting !== null}
        aria-busy={exporting === 'word' || undefined}
        onClick={() => void exportAs('word')}
      >
        <DownloadIcon />
        Export to Word
      </Button>
    </div>
  );
}
