import { asText, Fields, isObj, num, objAt, own, usageLine, type JsonObject } from './parts';

/** §3 receipt: why the model was called, every attempt, and which one won. */
export function ReceiptView({ e }: { e: JsonObject }) {
  const r = objAt(e, 'receipt');
  const attempts = own(r, 'attempts');
  const list = Array.isArray(attempts) ? attempts : [];
  const winning = own(r, 'winning_attempt');
  return (
    <div className="ev ev-receipt">
      <Fields
        rows={[
          ['purpose', asText(own(r, 'purpose'))],
          [
            'winning attempt',
            typeof winning === 'number'
              ? `#${winning}${list[winning] === undefined ? ' (no such attempt)' : ''}`
              : asText(winning),
          ],
          [
            'prefix digest',
            own(r, 'prefix_digest') !== undefined ? <code>{asText(own(r, 'prefix_digest'))}</code> : null,
          ],
          ['prefix tokens', num(own(r, 'prefix_tokens'))],
        ]}
      />
      <table className="ev-table" aria-label="Attempts">
        <thead>
          <tr>
            <th>#</th>
            <th>reason</th>
            <th>domain</th>
            <th>settlement</th>
            <th>usage</th>
          </tr>
        </thead>
        <tbody>
          {list.map((a, i) => {
            const o = isObj(a) ? a : {};
            return (
              <tr key={i} className={i === winning ? 'ev-winner' : undefined}>
                <td>
                  {i}
                  {i === winning ? ' ✓' : ''}
                </td>
                <td>{asText(own(o, 'reason'))}</td>
                <td>{asText(own(o, 'domain'))}</td>
                <td>{asText(own(o, 'settlement'))}</td>
                <td>{usageLine(own(o, 'usage'))}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
