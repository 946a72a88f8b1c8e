/** Writes text to the clipboard (the one permission the app asks for); throws a sentence when it cannot. */
export async function copyText(text: string): Promise<void> {
  const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clip || typeof clip.writeText !== 'function') {
    throw new Error('The clipboard is not available here (an insecure page, or no permission).');
  }
  try {
    await clip.writeText(text);
  } catch (e) {
    throw new Error(`Copy failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
