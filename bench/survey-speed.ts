/**
 * How long the secret survey takes over the 100 MB session with nothing else running, and the
 * CPU it uses meanwhile (this process, all threads: the survey's reads and batches, the scan
 * thread and its lint thread), with its default steps and rests.
 *   node bin/run-ts.mjs bench/survey-speed.ts
 */
import { join } from 'node:path';
import { sessionFileOf } from '../src/main/core/home';
import { stopSharedScanThread } from '../src/main/secrets/scan-thread';
import { SecretSurvey } from '../src/main/secrets/survey';
import { prepareReal100 } from './real100-data';

const data = prepareReal100((s) => console.log(s));
const file = sessionFileOf(data.home, data.key)!;
const survey = new SecretSurvey({
  sessions: () => [{ key: data.key, file }],
  isOpen: () => false,
  foregroundBusy: () => false,
  startMs: 0,
  passGapMs: 60_000,
});
// (The survey's timers never keep a process alive: this one does, until it is done.)
const alive = setInterval(() => undefined, 1000);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
survey.start();
await new Promise<void>((resolve) => {
  const off = survey.onChange(() => {
    if (survey.counts()[0]?.state === 'surveyed') {
      off();
      resolve();
    }
  });
});
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `surveyed ${join(data.key)} (${(data.bytes / 1e6).toFixed(0)} MB): ${survey.counts()[0].count} secrets in ` +
    `${(wall / 1000).toFixed(1)} s, process CPU ${cpuMs.toFixed(0)} ms (${((cpuMs / wall) * 100).toFixed(0)}% of one core)`,
);
clearInterval(alive);
await survey.stop();
stopSharedScanThread();
