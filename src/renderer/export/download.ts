/**
 * Saves a file the user downloads in serve mode: the page cannot write files, so the file is
 * behind an `<a download>` link to a same-origin URL the loopback server streams (its exports).
 */

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
