import type { ComponentProps } from 'react';

import { Button } from './button';

export type DownloadFile = { blob: Blob; name: string };

type DownloadButtonProps = Omit<ComponentProps<typeof Button>, 'onClick'> & {
  /** The file to save, made when the button is pressed; null saves nothing. */
  file: () => DownloadFile | null;
};

/**
 * A button that saves a file made in the browser. A blob: link is clicked and let go again, so
 * nothing is uploaded and the CSP needs no data: or inline script.
 */
export function DownloadButton({ file, ...props }: DownloadButtonProps) {
  return (
    <Button
      {...props}
      onClick={() => {
        const download = file();
        if (download) saveFile(download);
      }}
    />
  );
}

export function saveFile({ blob, name }: DownloadFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute later is safe.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
