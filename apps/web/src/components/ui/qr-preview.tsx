import { useMemo } from 'react';

import type { QrMatrix } from '@/lib/qr/encode-qr';
import type { QrLayout } from '@/lib/qr/qr-layout';
import { qrSvgPath } from '@/lib/qr/render-qr';

import styles from './qr-preview.module.css';

/** The code as it will be saved: the PNG's pixel grid, drawn as SVG so it stays sharp. */
export function QrPreview({ matrix, layout, label }: { matrix: QrMatrix; layout: QrLayout; label: string }) {
  const path = useMemo(() => qrSvgPath(matrix, layout), [matrix, layout]);
  const { edgePx } = layout;
  return (
    <svg
      className={styles.code}
      viewBox={`0 0 ${edgePx} ${edgePx}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-edge={edgePx}
    >
      <rect width={edgePx} height={edgePx} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
