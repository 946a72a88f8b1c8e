/**
 * A long output written piece by piece: small pieces gathered into writes of about
 * WRITE_CHARS, and a wait for the sink between writes (backpressure), so a command that prints
 * hundreds of MB holds one write's worth of text at a time, never the whole output.
 */

/** Where the pieces go: a text sink, and optionally a wait until it takes more. */
export interface PieceSink {
  out(s: string): void;
  outReady?(): Promise<void>;
  outFailed?(): boolean;
}

/** Characters gathered before one write: large enough that per-write costs vanish. */
export const WRITE_CHARS = 1 << 16;

/** Writes every piece to `sink` in order; stops making pieces once the sink failed. */
export async function writePieces(pieces: Iterable<string>, sink: PieceSink): Promise<void> {
  let held: string[] = [];
  let chars = 0;
  const flush = async (): Promise<void> => {
    if (held.length === 0) return;
    sink.out(held.length === 1 ? held[0] : held.join(''));
    held = [];
    chars = 0;
    await sink.outReady?.();
  };
  for (const piece of pieces) {
    if (sink.outFailed?.() === true) return;
    // A piece as long as a write goes alone: joining it to others would only copy it.
    if (piece.length >= WRITE_CHARS) {
      await flush();
      sink.out(piece);
      await sink.outReady?.();
      continue;
    }
    held.push(piece);
    chars += piece.length;
    if (chars >= WRITE_CHARS) await flush();
  }
  await flush();
}
