import type { SecretFinding } from '../../shared/api-secrets';
import { secretsLabel } from '../store/secrets-store';

/**
 * A mark for each secret found in an entry (or a projected message's sources): its kind and the
 * field it is in, never the secret; exports and copies carry `[redacted: kind]` in its place.
 */
export function SecretMarks({ findings }: { findings: readonly SecretFinding[] }) {
  const label = secretsLabel(findings);
  return (
    <span className="secret-marks" role="note" aria-label={label}>
      {findings.slice(0, 3).map((f, k) => (
        <span
          key={k}
          className="secret-mark"
          title={`secret (${f.kind}) in ${f.field}, line ${f.line}: exports and copies redact it`}
        >
          secret: {f.kind}
        </span>
      ))}
      {findings.length > 3 && <span className="secret-mark">+{findings.length - 3}</span>}
    </span>
  );
}
