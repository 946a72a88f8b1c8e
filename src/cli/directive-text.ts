/**
 * The directive text of `branch`: `--text TEXT`, or `--text-file PATH`, or `--text-file -`
 * (stdin) for a directive longer than one command-line argument may be (Linux caps one at 128 KiB).
 */
import { open } from 'node:fs/promises';
import { MAX_DIRECTIVE_BYTES } from '../main/core/branch-append';
import { UsageError } from './args';

/** What `--text-file -` reads: process.stdin, or any byte stream in tests. */
export type StdinSource = AsyncIterable<Uint8Array | string>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes read of a directive at most: the cap, and the trailing `\r\n` dropped below. */
const MAX_READ = MAX_DIRECTIVE_BYTES + 2;

function tooLarge(textFile: string): UsageError {
  return new UsageError(`--text-file ${textFile}: the directive is larger than ${MAX_DIRECTIVE_BYTES} bytes`);
}

/** Reads the directive from exactly one of `--text` / `--text-file`; one trailing newline of a file is dropped. */
export async function readDirective(
  text: string | undefined,
  textFile: string | undefined,
  stdin: StdinSource,
): Promise<string> {
  if (text !== undefined && textFile !== undefined)
    throw new UsageError('branch takes --text or --text-file, not both');
  if (text !== undefined) return text;
  if (textFile === undefined) throw new UsageError('branch needs --text TEXT or --text-file PATH (- for stdin)');
  const bytes = textFile === '-' ? await readAll(stdin) : await readNamedFile(textFile);
  if (bytes === null) throw tooLarge(textFile);
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    throw new UsageError(`--text-file ${textFile}: the directive is not valid UTF-8`);
  }
  // `echo …`, editors and heredocs end the text with a newline that is not part of the directive.
  const directive = decoded.replace(/\r?\n$/, '');
  if (Buffer.byteLength(directive, 'utf8') > MAX_DIRECTIVE_BYTES) throw tooLarge(textFile);
  return directive;
}

/** The file's bytes, or null past MAX_READ (never more than that is read: a huge file is refused, not loaded). */
async function readNamedFile(path: string): Promise<Uint8Array | null> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(MAX_READ + 1);
      let got = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buf, got, buf.length - got, null);
        if (bytesRead === 0) break;
        got += bytesRead;
        if (got > MAX_READ) return null;
      }
      return buf.subarray(0, got);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new UsageError(`--text-file: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The stream's bytes, or null past MAX_READ (it stops reading there). */
async function readAll(stream: StdinSource): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const c = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += c.length;
    if (total > MAX_READ) return null;
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}
