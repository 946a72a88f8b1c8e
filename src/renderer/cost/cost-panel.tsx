import { useEffect, useState } from 'react';
import type { CostBlock, SessionCost, TurnCost } from '../../shared/api-features';
import { useApi } from '../api/api-context';
import { describeError } from '../api/api-methods';
import { useAppStore } from '../store/app-store';
import { jumpToEntry } from '../tree/tree-nav';
import { fmtInt, shortId, timeOfDay } from '../util/format';
import { callsOf, costText, TOKEN_FIELDS, unpricedModels } from './cost-format';
import './cost.css';

/** Turns drawn at first; the rest on request (a long session has thousands). */
const FIRST_TURNS = 200;

/** Cost of the selected leaf's chain, of all branches and of the abandoned ones, per turn, with receipts' retries apart. */
export function CostPanel() {
  const api = useApi();
  const key = useAppStore((s) => s.sessionKey);
  const leaf = useAppStore((s) => s.leafView?.leaf ?? s.leaf);
  // Any live change, a reload or an append patched in from its delta, asks again.
  const treeVersion = useAppStore((s) => s.treeVersion + s.appendVersion);
  const [cost, setCost] = useState<SessionCost | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [allTurns, setAllTurns] = useState(false);
  // An edit of prices.json (the backend watches it) asks again, while the panel is open.
  const [pricesVersion, setPricesVersion] = useState(0);
  useEffect(() => api.onEvent((e) => e.type === 'prices' && setPricesVersion((v) => v + 1)), [api]);

  useEffect(() => {
    if (!key) return;
    let live = true;
    api.getCost({ key, leaf }).then(
      (c) => {
        if (!live) return;
        setCost(c);
        setError(null);
      },
      (e: unknown) => live && setError(describeError(e)),
    );
    return () => {
      live = false;
    };
  }, [api, key, leaf, treeVersion, pricesVersion]);

  if (!key) return <p className="dim">No session open.</p>;
  if (!cost) return error ? <p className="error">{error}</p> : <p className="dim">Adding up…</p>;
  const unpriced = unpricedModels(
    cost.allBranches.messages,
    cost.allBranches.retries,
    ...cost.turns.map((t) => t.messages),
  );
  const turns = allTurns ? cost.turns : cost.turns.slice(-FIRST_TURNS);
  return (
    <div className="cost-panel">
      {error && <p className="error">{error}</p>}
      <table className="cost-table" aria-label="Session cost">
        <thead>
          <tr>
            <th />
            {TOKEN_FIELDS.map(([, label]) => (
              <th key={label} className="num">
                {label}
              </th>
            ))}
            <th className="num">calls</th>
            <th className="num">cost</th>
          </tr>
        </thead>
        <tbody>
          <BlockRow label={`this chain (leaf ${shortId(cost.leaf)})`} b={cost.chain.messages} />
          <BlockRow label="all branches" b={cost.allBranches.messages} />
          <BlockRow
            label="abandoned branches — real money"
            b={cost.abandoned.messages}
            className="abandoned"
            title="Calls on branches the session left: paid for, not on this chain"
          />
          <tr className="cost-sep">
            <td colSpan={7}>
              Receipts' retries and failed attempts: calls that produced no message, paid apart (never added to the rows
              above)
            </td>
          </tr>
          <BlockRow label="retries · this chain" b={cost.chain.retries} className="retries" />
          <BlockRow label="retries · all branches" b={cost.allBranches.retries} className="retries" />
        </tbody>
      </table>
      <PriceNote cost={cost} unpriced={unpriced} />
      <table className="cost-table cost-turns" aria-label="Cost per turn">
        <thead>
          <tr>
            <th>turn</th>
            <th>time</th>
            {TOKEN_FIELDS.map(([, label]) => (
              <th key={label} className="num">
                {label}
              </th>
            ))}
            <th className="num">cost</th>
            <th className="num" title="Receipt attempts in the turn (winning included) · what the others cost">
              attempts · retries
            </th>
          </tr>
        </thead>
        <tbody>
          {cost.turns.length > turns.length && (
            <tr>
              <td colSpan={8}>
                <button type="button" onClick={() => setAllTurns(true)}>
                  show all {fmtInt(cost.turns.length)} turns (the last {FIRST_TURNS} are shown)
                </button>
              </td>
            </tr>
          )}
          {turns.map((t, i) => (
            <TurnRow key={t.turnId ?? `pre-${i}`} t={t} onJump={(id) => void jumpToEntry(api, id)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BlockRow({ label, b, className, title }: { label: string; b: CostBlock; className?: string; title?: string }) {
  return (
    <tr className={className} title={title}>
      <th scope="row">{label}</th>
      {TOKEN_FIELDS.map(([k]) => (
        <td key={k} className="num">
          {fmtInt(b.tokens[k])}
        </td>
      ))}
      <td className="num">{fmtInt(callsOf(b))}</td>
      <td className="num cost">{costText(b)}</td>
    </tr>
  );
}

function TurnRow({ t, onJump }: { t: TurnCost; onJump: (id: string) => void }) {
  const retryCalls = callsOf(t.retries);
  return (
    <tr>
      <td className="turn-title">
        {t.turnId ? (
          <button type="button" className="link-button" onClick={() => onJump(t.turnId ?? '')} title={t.turnId}>
            {t.title || shortId(t.turnId)}
          </button>
        ) : (
          <span className="dim">before the first directive</span>
        )}
      </td>
      <td>{timeOfDay(t.ts)}</td>
      {TOKEN_FIELDS.map(([k]) => (
        <td key={k} className="num">
          {fmtInt(t.messages.tokens[k])}
        </td>
      ))}
      <td className="num cost">{costText(t.messages)}</td>
      <td className="num">
        {t.attempts > 0 ? fmtInt(t.attempts) : '–'}
        {retryCalls > 0 ? ` · ${costText(t.retries)}` : ''}
      </td>
    </tr>
  );
}

function PriceNote({ cost, unpriced }: { cost: SessionCost; unpriced: string[] }) {
  const p = cost.prices;
  return (
    <div className="price-note" aria-label="Price table">
      <p>
        Prices: {p.source === 'user' ? 'your table' : 'the bundled table'} (USD per million tokens
        {Object.keys(p.models).length > 0 ? `; ${Object.keys(p.models).sort().join(', ')}` : ''}).{' '}
        {p.path ? (
          <>
            Edit them in <code className="price-path">{p.path}</code>
            {p.source === 'bundled' && p.errors.length === 0
              ? ' (not there yet: create it to override the bundled prices)'
              : ''}
            .
          </>
        ) : (
          'This backend has no data folder for a price table of your own.'
        )}
      </p>
      {p.errors.length > 0 && (
        <ul className="error price-errors" aria-label="Price table errors">
          {p.errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
          <li>The bundled prices are used until the file is fixed.</li>
        </ul>
      )}
      {unpriced.length > 0 && (
        <p className="unpriced">
          No price for {unpriced.join(', ')}: shown as tokens only (never a guessed price). Add{' '}
          {unpriced.length === 1 ? 'it' : 'them'} to the table to see a cost.
        </p>
      )}
    </div>
  );
}
