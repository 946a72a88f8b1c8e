import { describe, expect, it } from 'vitest';
import { parseRequest } from './api-schemas';
import { DEFAULT_PROFILE } from './ledger-types';

const KEY = 'agents/vak/sessions/0123456789abcdef/s1.jsonl';

/** Overrides as they arrive off the wire: JSON.parse makes `__proto__` an own key, not a prototype. */
const wireOverrides = (): unknown =>
  JSON.parse('{"__proto__": {"fidelity": "card"}, "t2": {"fidelity": "packet", "packet_id": "p1"}}');

describe('overrides keep every turn id, __proto__ included, in every request that carries them', () => {
  const leafRequest = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE };
  it.each([
    ['getLeafView', leafRequest],
    ['getContextSeries', leafRequest],
    ['beginExport', { ...leafRequest, format: 'json' }],
  ] as const)('%s', (method, req) => {
    const parsed = parseRequest(method, { ...req, overrides: wireOverrides() });
    const overrides = parsed.overrides ?? {};
    expect(Object.keys(overrides).sort()).toEqual(['__proto__', 't2']);
    expect(Object.getOwnPropertyDescriptor(overrides, '__proto__')?.value).toEqual({ fidelity: 'card' });
    expect(Object.getPrototypeOf(overrides)).toBeNull();
  });

  it('an override that is not a table is refused', () => {
    expect(() => parseRequest('getContextSeries', { ...leafRequest, overrides: [] })).toThrow(/bad getContextSeries/);
  });
});

describe('getPlanTurns: a window of the plan or turns by id, never both', () => {
  const leaf = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} };
  it('takes a window or ids, turn ids kept as data', () => {
    expect(parseRequest('getPlanTurns', { ...leaf, start: 0, count: 1000 })).toMatchObject({ start: 0, count: 1000 });
    expect(parseRequest('getPlanTurns', { ...leaf, ids: ['__proto__', 't2'] })).toMatchObject({
      ids: ['__proto__', 't2'],
    });
  });

  it.each([
    ['both', { ...leaf, start: 0, count: 1, ids: ['t1'] }],
    ['a page over the limit', { ...leaf, start: 0, count: 1001 }],
    ['too many ids', { ...leaf, ids: Array.from({ length: 1001 }, (_, k) => `t${k}`) }],
    ['neither', leaf],
    ['an empty id', { ...leaf, ids: [''] }],
  ])('refuses %s', (_, req) => {
    expect(() => parseRequest('getPlanTurns', req)).toThrow(/bad getPlanTurns/);
  });
});

describe('the secret survey setting: on or off, nothing else', () => {
  it('takes a boolean, and no request at all to read it', () => {
    expect(parseRequest('setSecretSurvey', { on: false })).toEqual({ on: false });
    expect(parseRequest('setSecretSurvey', { on: true })).toEqual({ on: true });
    expect(parseRequest('getSecretSurvey', {})).toEqual({});
  });

  it.each([
    ['no value', {}],
    ['a string', { on: 'false' }],
    ['a number', { on: 0 }],
    ['null', { on: null }],
    ['another field', { on: true, kept: true }],
    ['not an object', true],
  ])('refuses %s', (_, req) => {
    expect(() => parseRequest('setSecretSurvey', req)).toThrow(/bad setSecretSurvey/);
  });

  it('refuses a request to read it that carries a value', () => {
    expect(() => parseRequest('getSecretSurvey', { on: true })).toThrow(/bad getSecretSurvey/);
  });
});

describe('getWork: the work items of one session, asked by its key alone', () => {
  it('takes a session key', () => {
    expect(parseRequest('getWork', { key: KEY })).toEqual({ key: KEY });
  });

  it.each([
    ['no key', {}],
    ['a key that is not a session', { key: '../etc/passwd' }],
    ['a leaf (the items are the active chain’s)', { key: KEY, leaf: 'e1' }],
    ['not an object', KEY],
  ])('refuses %s', (_, req) => {
    expect(() => parseRequest('getWork', req)).toThrow(/bad getWork/);
  });
});

describe('getContextSeries: the series the client holds, checked as the rest', () => {
  const req = { key: KEY, leaf: null, plan: 'auto', profile: DEFAULT_PROFILE, overrides: {} };
  const held = { basis: 'p.1.abc', leaf: 'e0001', points: 12 };
  it('takes a held series (or none)', () => {
    expect(parseRequest('getContextSeries', { ...req, held }).held).toEqual(held);
    expect(parseRequest('getContextSeries', req).held).toBeUndefined();
  });

  it.each([
    ['an extra field', { ...held, points2: 1 }],
    ['a negative count', { ...held, points: -1 }],
    ['a fractional count', { ...held, points: 1.5 }],
    ['an empty basis', { ...held, basis: '' }],
    ['a basis too long', { ...held, basis: 'x'.repeat(129) }],
    ['no leaf', { basis: held.basis, points: 1 }],
    ['a leaf that is not an id', { ...held, leaf: 7 }],
  ])('refuses %s', (_, bad) => {
    expect(() => parseRequest('getContextSeries', { ...req, held: bad })).toThrow(/bad getContextSeries/);
  });
});
