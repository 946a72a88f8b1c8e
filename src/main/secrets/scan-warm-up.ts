/**
 * A made-up batch the scan threads run once when the backend starts them ahead of any session
 * (ScanThread.prepare): their code is loaded, run and optimized then, so a first open does not
 * pay for it. Each new thread is a new V8 isolate that compiles its code afresh, and V8 optimizes
 * it on the process's shared helper threads, which run at the process's own priority and so take
 * a core from the reading thread however low the scan threads' priority is.
 *
 * The lines look like a session's (prose, code, paths, long names, hashes): every one passes the
 * gate so that the parse and the preset run over all of them. None holds a secret; its findings,
 * if any, are dropped.
 */
import type { LineBatch } from './scan-batch';

/** Lines in the batch: enough calls for V8 to optimize the gate, the parse and the preset's hot paths. */
const LINES = 512;

export function warmUpBatch(): LineBatch {
  const lines: Buffer[] = [];
  for (let k = 0; k < LINES; k++) {
    const text =
      `step ${k}: reading src/main/secrets/scanThreadWarmUpExample${k}.ts, ` +
      `const configurationValueForStep${k} = loadSettingsFromEnvironmentVariables(); ` +
      `commit ${(k * 2654435761).toString(16).padStart(8, '0').repeat(5)} on https://example.com/path/${k}?q=1 ` +
      'the quick brown fox jumps over the lazy dog; '.repeat(1 + (k % 8));
    lines.push(
      Buffer.from(
        JSON.stringify({
          id: `warm-up-${k}`,
          kind: 'message',
          message: { role: k % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] },
        }),
      ),
    );
  }
  return batchOf(lines);
}

/** Bytes of prose the scan thread gates when it starts (`gateWarmUpBatch`). */
const GATE_WARM_UP_BYTES = 1 << 20;
/** … this many times: enough for V8 to move the gate's WebAssembly and its loop to optimized code. */
export const GATE_WARM_UP_ROUNDS = 4;

/**
 * A batch of lines most of which do not pass the gate (prose, short words, short hex), as most of
 * a session's bytes do not: the gate then runs over whole lines, the loop a read spends its time
 * in, which the warm-up batch above (every line passing at its first long run) hardly enters.
 * Gated only, on the scan thread: nothing of it reaches the lint thread.
 */
export function gateWarmUpBatch(): LineBatch {
  const lines: Buffer[] = [];
  for (let k = 0, used = 0; used < GATE_WARM_UP_BYTES; k++) {
    const text =
      `line ${k} of ${(k * 40503).toString(16)}: ` +
      'the quick brown fox jumps over the lazy dog; '.repeat(1 + (k % 97));
    const line = Buffer.from(JSON.stringify({ id: `gate-${k}`, kind: 'message', text }));
    lines.push(line);
    used += line.length;
  }
  return batchOf(lines);
}

/**
 * Lines as one batch, numbered from 1 and named by their positions, in its own ArrayBuffer (not a
 * slice of Buffer's shared pool): the batch is transferred to the lint thread.
 */
function batchOf(lines: readonly Buffer[]): LineBatch {
  const ends: number[] = [];
  let used = 0;
  for (const line of lines) ends.push((used += line.length));
  const buf = Buffer.concat(lines);
  return {
    buf: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length) as ArrayBuffer,
    ends,
    lineNos: lines.map((_, k) => k + 1),
    entries: lines.map((_, k) => k),
  };
}
