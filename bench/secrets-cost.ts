/**
 * Where the scanner's time goes on the 100 MB session, in process (each part alone, once):
 *   node bin/run-ts.mjs bench/secrets-cost.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryTexts } from '../src/main/secrets/entry-texts';
import { mayHoldSecret } from '../src/main/secrets/secret-gate';
import { lintText } from '../src/main/secrets/secret-rules';
import { prepareReal100 } from './real100-data';

const r = prepareReal100((s) => console.log(s));
const buf = readFileSync(join(r.home, r.key));
let t = performance.now();
const lines: Buffer[] = [];
for (let start = 0; start < buf.length;) {
  let end = buf.indexOf(10, start);
  if (end < 0) end = buf.length;
  lines.push(Buffer.from(buf.subarray(start, end)));
  start = end + 1;
}
console.log(`copy lines: ${(performance.now() - t).toFixed(0)} ms`);
t = performance.now();
const texts: string[] = [];
for (const l of lines) for (const x of entryTexts(JSON.parse(l.toString('utf8')))) texts.push(x.text);
const chars = texts.reduce((a, s) => a + s.length, 0);
console.log(`parse + texts: ${(performance.now() - t).toFixed(0)} ms, ${texts.length} texts, ${chars} chars`);
t = performance.now();
const gated = texts.filter(mayHoldSecret);
const gatedChars = gated.reduce((a, s) => a + s.length, 0);
console.log(`gate: ${(performance.now() - t).toFixed(0)} ms, ${gated.length} texts, ${gatedChars} chars pass`);
t = performance.now();
let found = 0;
for (let k = 0; k < gated.length;) {
  let batch = '';
  while (k < gated.length && batch.length < 32 << 10) batch += gated[k++] + '\n\u0000\n';
  found += (await lintText(batch)).length;
}
console.log(`rules over what passed: ${(performance.now() - t).toFixed(0)} ms, ${found} findings`);
