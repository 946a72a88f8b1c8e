/**
 * Saves text as a file the user downloads: the renderer cannot write files (no Node, in
 * Electron as in serve mode), so the text becomes a Blob behind an `<a download>` link.
 * The blob: URL is same-origin and revoked right after the click has started the download.
 */
export function downloadText(fileName: string, text: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mimeType};charset=utf-8` }));
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
    // The download reads the blob asynchronously: revoke once it had its chance to start.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
