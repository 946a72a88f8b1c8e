/**
 * Reads a Chromium trace that `npm run bench -- ui --profile D` wrote (D/clicks.json, D/reopen.json …)
 * and says where the page's main thread spent the time after each input event of one type:
 * the browser's own phases (style, layout, paint, layerize: their trace events) and the JavaScript
 * self time by function, named through the build's source maps (build with `--sourcemap` first:
 * `npx electron-vite build --sourcemap`; without maps the minified names are shown).
 *   node bin/run-ts.mjs bench/trace-self-time.ts D/clicks.json [--event click] [--window 150] [--top 40]
 * A native call made from a function (a layout read such as `clientHeight`) counts as that function's
 * self time: a function high on the list with no loop of its own is usually a forced layout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { ROOT } from '../src/test-support/serve-process';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { data?: Record<string, unknown> };
}
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Chunk {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
  timeDeltas?: number[];
}

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const file = args.find((a) => a.endsWith('.json'));
if (!file) throw new Error('usage: bench/trace-self-time.ts TRACE.json [--event click] [--window 150] [--top 40]');
const type = opt('--event', 'click');
const windowUs = Number(opt('--window', '150')) * 1000;
const top = Number(opt('--top', '40'));
const assets = join(ROOT, 'out', 'renderer', 'assets');

const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
const inputs = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.['type'] === type);
if (inputs.length === 0) throw new Error(`no ${type} event in ${file}`);
const { pid, tid } = inputs[0];
const within = (ts: number): boolean => inputs.some((i) => ts >= i.ts && ts <= i.ts + windowUs);

// The browser's phases on the page's main thread (complete events), summed per input.
const PHASES = ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'MinorGC', 'MajorGC'];
const phases = new Map<string, number>();
for (const e of events) {
  if (e.pid !== pid || e.tid !== tid || e.ph !== 'X' || !PHASES.includes(e.name) || !within(e.ts)) continue;
  phases.set(e.name, (phases.get(e.name) ?? 0) + (e.dur ?? 0));
}

// The JavaScript samples of the main thread's profile.
const maps = new Map<string, SourceMapConsumer | null>();
const mapOf = (url: string): SourceMapConsumer | null => {
  const f = join(assets, `${url.split('/').pop() ?? ''}.map`);
  if (!maps.has(f))
    maps.set(f, existsSync(f) ? new SourceMapConsumer(JSON.parse(readFileSync(f, 'utf8')) as never) : null);
  return maps.get(f) ?? null;
};
const nameOf = (cf: CallFrame): string => {
  const fn = cf.functionName || '(anonymous)';
  if (!cf.url) return fn;
  const m = mapOf(cf.url);
  const o = m?.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber });
  if (!o?.source) return `${fn} ${cf.url.split('/').pop() ?? ''}:${cf.lineNumber + 1}`;
  const where = o.source.includes('node_modules/')
    ? o.source.split('node_modules/').pop()
    : o.source.split('src/').pop();
  return `${o.name ?? fn} ${where ?? ''}:${o.line}`;
};
const profile = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid);
const self = new Map<string, number>();
let sampled = 0;
if (profile) {
  let t = Number(profile.args?.data?.['startTime'] ?? 0);
  const nodes = new Map<number, ProfileNode>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid || e.id !== profile.id) continue;
    const d = e.args?.data as Chunk | undefined;
    for (const n of d?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const samples = d?.cpuProfile?.samples ?? [];
    const deltas = d?.timeDeltas ?? [];
    samples.forEach((s, i) => {
      t += deltas[i] ?? 0;
      const n = nodes.get(s);
      if (!n || !within(t)) return;
      const k = nameOf(n.callFrame);
      self.set(k, (self.get(k) ?? 0) + (deltas[i] ?? 0));
      sampled += deltas[i] ?? 0;
    });
  }
}

const ms = (us: number): string => (us / 1000 / inputs.length).toFixed(1).padStart(7);
console.log(`${inputs.length} ${type} events, ${windowUs / 1000} ms after each; ms per event:`);
for (const p of PHASES)
  if (phases.has(p)) console.log(`${ms(phases.get(p) ?? 0)}  ${p} (trace events, nested ones too)`);
if (!profile) console.log('  (no JavaScript samples: the trace has no Profile event)');
else console.log(`${ms(sampled)}  sampled, of it by self time:`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(v)}  ${k}`);
