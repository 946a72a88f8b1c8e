/**
 * The directive text of `branch`: `--text TEXT`, or `--text-file PATH`, or `--text-file -`
 * (stdin) for a directive longer than one command-line argument may be (Linux caps one at 128 KiB).
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from './args';

/** What `--text-file -` reads: process.stdin, or any byte stream in tests. */
export type StdinSource = AsyncIterable<Uint8Array | string>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

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
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    throw new UsageError(`--text-file ${textFile}: the directive is not valid UTF-8`);
  }
  // `echo …`, editors and heredocs end the text with a newline that is not part of the directive.
  return decoded.replace(/\r?\n$/, '');
}

async function readNamedFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new UsageError(`--text-file: cannot read ${path}: ${(e as Error).message}`);
  }
}

async function readAll(stream: StdinSource): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks);
}
