import { useId, useRef, useState, type DragEvent } from 'react';

import { FileTextIcon, UploadIcon } from '@/components/ui/icons';
import { formatAtMostOneDecimal } from '@/lib/format-number';

import styles from './marketing-converter.module.css';

type FileDropZoneProps = {
  /** The chosen file's name and size, once there is one. */
  file: { name: string; size: number } | null;
  onFile: (file: File) => void;
  disabled?: boolean;
  /** Changing it empties the input, so the same file can be chosen again after Clear. */
  resetKey: number;
};

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${formatAtMostOneDecimal(bytes / 1024)} KB`;
  return `${formatAtMostOneDecimal(bytes / (1024 * 1024))} MB`;
}

/** A real file input (keyboard and screen readers use it as usual) that also takes a drop. */
export function FileDropZone({ file, onFile, disabled, resetKey }: FileDropZoneProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  const onDragEnter = (event: DragEvent) => {
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };

  return (
    <div
      className={[styles.dropZone, dragging ? styles.dragging : '', file ? styles.hasFile : '']
        .filter(Boolean)
        .join(' ')}
      onDragEnter={onDragEnter}
      onDragOver={(event) => event.preventDefault()}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <span className={styles.dropIcon} aria-hidden="true">
        {file ? <FileTextIcon /> : <UploadIcon />}
      </span>
      {file ? (
        <p className={styles.dropText}>
          <strong className={styles.fileName}>{file.name}</strong>
          <span className={styles.dropHint}>{formatFileSize(file.size)}</span>
        </p>
      ) : (
        <p className={styles.dropText}>
          <strong>Drop a WebVTT file here</strong>
          <span className={styles.dropHint}>.vtt only, up to 20 MB</span>
        </p>
      )}
      <input
        key={resetKey}
        id={id}
        type="file"
        accept=".vtt,text/vtt"
        className={`visually-hidden ${styles.fileInput}`}
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          if (chosen) onFile(chosen);
        }}
      />
      <label htmlFor={id} className={styles.chooseButton}>
        {file ? 'Choose another file' : 'Choose a .vtt file'}
      </label>
    </div>
  );
}
