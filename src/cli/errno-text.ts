/** An I/O error in words for one line of stderr: its code and what it means ("ENOSPC: no space left on device"). */
export function errnoText(e: NodeJS.ErrnoException): string {
  const meaning = e.code === undefined ? undefined : ERRNO_WORDS.get(e.code);
  if (meaning !== undefined) return `${e.code}: ${meaning}`;
  return e.code ?? e.message;
}

const ERRNO_WORDS: ReadonlyMap<string, string> = new Map([
  ['EPIPE', 'the reader closed the pipe'],
  ['ENOSPC', 'no space left on device'],
  ['EIO', 'input/output error'],
  ['EBADF', 'stdout is not open'],
  ['EDQUOT', 'disk quota exceeded'],
  ['EFBIG', 'file too large'],
  ['EAGAIN', 'the output would block'],
  ['ERR_STREAM_DESTROYED', 'stdout was closed'],
  ['ENOENT', 'no such file or directory'],
  ['EACCES', 'permission denied'],
  ['EISDIR', 'is a directory'],
]);
