/**
 * Saves a file the user downloads: the renderer cannot write files (no Node, in Electron as in
 * serve mode), so the file is behind an `<a download>` link: a Blob of text the page holds, or
 * a same-origin URL the server streams (serve mode's exports).
 */
export function downloadText(fileName: string, text: string, mimeType: string): void {
  downloadBlob(fileName, new Blob([text], { type: `${mimeType};charset=utf-8` }));
}

/** Saves a Blob; its blob: URL is same-origin and revoked once the download had its chance to start. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  try {
    downloadUrl(fileName, url);
  } finally {
    // The download reads the blob asynchronously: revoke once it had its chance to start.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Follows a same-origin `url` as a download saved as `fileName`. */
export function downloadUrl(fileName: string, url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
  }
}
