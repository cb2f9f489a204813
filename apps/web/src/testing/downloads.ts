import { vi } from 'vitest';

/** A file a page saved: its blob, its name, its object URL, and whether its link was in the page. */
export type SavedFile = { blob: Blob; name: string; href: string; inDocument: boolean };

/**
 * What the page saves from now on. jsdom has no object URLs and does not download, so both are
 * stood in for: each blob gets a `blob:test/N` URL, and a click on a link to one is caught and
 * recorded (a link to a blob that was never made fails the test). Call it in `beforeEach`; a
 * `vi.restoreAllMocks()` in `afterEach` gives the links their click back.
 */
export function catchDownloads(): SavedFile[] {
  const saved: SavedFile[] = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (!this.href.startsWith('blob:')) return;
    const blob = blobs.get(this.href);
    if (!blob) throw new Error(`No blob behind ${this.href}`);
    saved.push({ blob, name: this.download, href: this.href, inDocument: document.body.contains(this) });
  });
  return saved;
}
