/** Starts ./serve-child.ts: the real serve mode in its own process, with a placeholder page. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './serve-process';

export interface ServeChild {
  child: ChildProcess;
  port: number;
  token: string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
}

/** Serve mode on `home` in a child process; resolves once it listens (printed its URL). */
export async function startServeChild(home: string, timeoutMs = 60_000): Promise<ServeChild> {
  const child = spawn(process.execPath, ['bin/run-ts.mjs', join('src/test-support/serve-child.ts'), home], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += String(d)));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`serve printed no URL in ${timeoutMs} ms\n${out}\n${err}`)),
      timeoutMs,
    );
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}\n${out}\n${err}`));
    });
  });
  const token = url.searchParams.get('token') ?? '';
  return { child, port: Number(url.port), token, stderr: () => err, exited };
}
