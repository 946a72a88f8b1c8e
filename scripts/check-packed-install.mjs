// `npm run check:pack`: the package as a user gets it. Packs this folder (`npm pack` runs
// `prepare` = `npm run build`, so the tarball holds the built CLI and renderer), installs the
// tarball into a fresh temp folder from the registry, and runs the installed command:
// `npx vak-explorer verify FIXTURE --json`, a refused option, and `serve` answering once.
// Needs the npm registry (the package's dependencies are installed for real).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const FIXTURE = join(ROOT, '..', 'shared', 'fixtures', 'linear.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'vak-pack-'));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const step = (s) => console.log(`[check:pack] ${s}`);

try {
  step('npm pack');
  npm(['pack', '--pack-destination', dir, '--silent'], ROOT);
  const tarball = join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');
  const consumer = join(dir, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), '{"name":"consumer","private":true}\n');
  step(`npm install ${tarball} in a fresh folder`);
  npm(['install', '--no-audit', '--no-fund', tarball], consumer);

  const out = npm(['exec', '--', 'vak-explorer', 'verify', FIXTURE, '--json'], consumer);
  const report = JSON.parse(out);
  if (report.entries !== 21 || report.warnings.length !== 0) throw new Error(`unexpected verify output: ${out}`);
  step(`npx vak-explorer verify ${FIXTURE} --json → ${report.entries} entries, no warnings`);

  let refused = false;
  try {
    npm(['exec', '--', 'vak-explorer', 'project', FIXTURE, '--widnow', '3'], consumer);
  } catch (e) {
    refused = e.status === 2;
  }
  if (!refused) throw new Error('an unknown option was not refused with exit 2');
  step('an unknown option exits 2');

  const bin = join(consumer, 'node_modules', 'vak-explorer', 'bin', 'vak-explorer.mjs');
  const home = join(ROOT, '..', 'shared', 'fixtures', 'demo-home');
  const child = spawn(process.execPath, [bin, 'serve', '--home', home, '--port', '0', '--no-open'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((ok, fail) => {
    let text = '';
    const timer = setTimeout(() => fail(new Error(`serve printed no URL: ${text}`)), 30_000);
    child.stdout.on('data', (d) => {
      text += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(text);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on('exit', (code) => fail(new Error(`serve exited ${code}: ${text}`)));
  });
  const page = await fetch(url, { redirect: 'manual' });
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const index = await fetch(new URL('/', url), { headers: { cookie } });
  const html = await index.text();
  child.kill('SIGTERM');
  if (!html.includes('<!doctype html>')) throw new Error(`serve did not hand out the renderer (${index.status})`);
  step('serve hands out the built renderer');
  step('ok');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
