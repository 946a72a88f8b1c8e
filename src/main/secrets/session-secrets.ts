/**
 * The secret scanners of the sessions opened in this process, by session key: one per reading
 * (a new reading of a session replaces its scanner), so counts outlive a session leaving the cache.
 */
import type { SecretCount, SecretFinding, SessionSecrets } from '../../shared/api-secrets';
import type { SessionKey } from '../../shared/leaf-request';
import { Redactor } from './redact';
import { SecretScanner, type HeldFinding } from './secret-scanner';

const scanners = new Map<SessionKey, SecretScanner>();
const added = new Set<(s: SecretScanner) => void>();

/** A scanner for a new reading of `key` (pass it as the ledger's `lineSink`). */
export function newSessionScanner(key: SessionKey): SecretScanner {
  const s = new SecretScanner();
  // The reading it replaces is closed: what it deferred is not scanned.
  scanners.get(key)?.dropDeferred();
  scanners.set(key, s);
  for (const f of added) f(s);
  return s;
}

/** Told of every scanner made from now on (whoever pushes the counts follows its findings). */
export function onScannerAdded(f: (s: SecretScanner) => void): () => void {
  added.add(f);
  return () => added.delete(f);
}

/**
 * A client was answered a first screen of `key` (a leaf's view): its scan, deferred while that
 * screen was pending (SecretScanner.deferUntilFirstScreen), goes on once this turn's answer is sent.
 */
export function firstScreenAnswered(key: SessionKey): void {
  const s = scanners.get(key);
  if (s?.deferred) setImmediate(() => s.endDeferral());
}

export function sessionScanner(key: SessionKey): SecretScanner | undefined {
  return scanners.get(key);
}

/** What leaves this process of a finding: never the secret's text. */
export function publicFinding(f: HeldFinding): SecretFinding {
  return {
    entryId: f.entryId,
    line: f.line,
    field: f.field,
    rule: f.rule,
    kind: f.kind,
    start: f.start,
    end: f.end,
    lineBytes: f.lineBytes,
  };
}

export function secretCounts(): SecretCount[] {
  return [...scanners].map(([key, s]) => ({ key, count: s.count, scanning: s.busy, state: 'open' }));
}

export function sessionSecrets(key: SessionKey, entryIds: string[] | undefined, limit = 1000): SessionSecrets {
  const s = scanners.get(key);
  const kinds = Object.create(null) as Record<string, number>;
  if (!s) return { key, count: 0, scanning: false, fromLine: 1, kinds, findings: [], clipped: false };
  for (const f of s.findings()) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
  const chosen = entryIds ? entryIds.flatMap((id) => s.findingsOf(id)) : s.findings();
  return {
    key,
    count: s.count,
    scanning: s.busy,
    fromLine: s.fromLine,
    kinds,
    findings: chosen.slice(0, limit).map(publicFinding),
    clipped: chosen.length > limit,
  };
}

/** A redactor of the secrets found in `key` so far (an empty one when it was never scanned). */
export function sessionRedactor(key: SessionKey): Redactor {
  return new Redactor(scanners.get(key)?.findings() ?? []);
}
