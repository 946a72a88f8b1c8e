/**
 * Differential: a reader that skims (json-skim.ts) reads every ledger as one that parses each line
 * whole — the same warnings, index and Full notes — however the file writes its lines. The lines
 * here are ledger-shaped (messages of text, thinking and tool blocks, long and short strings) and
 * written to tempt the skimmer: any key with `\u` escapes (`"t\u0065xt"`, either case), strings
 * holding or starting with U+0000 (written `\u0000`, or raw: JSON refuses that), strings that
 * spell a placeholder (`"\u0000" + k`) next to long strings that get placeholders, `\\u0000`
 * (a backslash, then "u0000"), `\/`, surrogate pairs and lone surrogates, spaces between tokens,
 * duplicate keys, and damage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { FullNotes } from './full-notes';
import { JsonSkim } from './json-skim';
import { LedgerIndex } from './ledger-index';
import { LineFeeder } from './line-feeder';
import { LineReader } from './line-reader';

const BPT = DEFAULT_PROFILE.bytes_per_token;

/**
 * Everything a first read learns from a file, read with `skim`; how many lines were skimmed, and
 * how many of those hold `\u0000` (in a long string: elsewhere the line is parsed whole).
 */
function readWith(bytes: Buffer, skim: JsonSkim): { read: unknown; skimmed: number; skimmedWithNul: number } {
  let skimmed = 0;
  let skimmedWithNul = 0;
  const counting = new (class extends JsonSkim {
    override text(line: Buffer): string {
      const t = super.text(line);
      if (this.long.count > 0) {
        skimmed++;
        if (line.includes('\\u0000')) skimmedWithNul++;
      }
      return t;
    }
  })(skim.minLine, skim.minString);
  const index = new LedgerIndex();
  const notes = new FullNotes(BPT, true);
  const reader = new LineReader(index, notes, counting);
  new LineFeeder(reader, 0).push(bytes);
  const n = index.count;
  const read = {
    warnings: reader.warnings,
    ids: index.ids.slice(0, n),
    parent: [...index.parent.subarray(0, n)],
    kind: [...index.kind.subarray(0, n)],
    flags: [...index.flags.subarray(0, n)],
    usage: [...index.usage.subarray(0, n * 4)],
    maps: [...index.routeKey, ...index.packetRange, ...index.orphanParent, ...index.unknownKind],
    tokens: Array.from({ length: n }, (_, i) => notes.tokensOf(i, BPT)),
    calls: Array.from({ length: n }, (_, i) => notes.callsOf(i)),
  };
  return { read, skimmed, skimmedWithNul };
}

/** Characters a string is made of: plain, escaped by JSON, multi-byte in UTF-8, surrogates. */
const UNITS = ['a', 'b', ' ', '\n', '"', '\\', '/', '\t', 'é', '€', '😀', '\ud800', '\udc00', '0', '1', '7', 'u'];
const unit = fc.constantFrom(...UNITS);
const plain = (minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });

/** Strings that spell, or start like, a placeholder (`\u0000` and up to three digits), or hold U+0000. */
const lookalike = fc.oneof(
  { weight: 4, arbitrary: fc.nat(2).map((k) => '\u0000' + k) },
  fc.nat(130).map((k) => '\u0000' + k),
  fc.constantFrom('\u0000', '\u00000', '\u00001', '\u000000', '\u0000x', 'x\u00000', '\\u00000', '\u0000\u00000'),
  plain(0, 20).map((s) => '\u0000' + s),
  plain(0, 20).map((s) => s + '\u0000'),
);

/**
 * A string value: long (skimmed where it stands at text or content; some hold U+0000 and
 * lookalikes), short, or (in a line that tempts) a lookalike.
 */
const value = (tempt: boolean) =>
  fc.oneof(
    { weight: 5, arbitrary: plain(200, 700) },
    { weight: tempt ? 2 : 1, arbitrary: fc.tuple(plain(100, 300), lookalike, plain(100, 300)).map((p) => p.join('')) },
    { weight: 3, arbitrary: plain(0, 30) },
    { weight: tempt ? 3 : 0, arbitrary: lookalike },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );

/** A key starting so is written with some of its characters escaped (the rest are, sometimes). */
const ESCAPED = '\u0001';

/** A content block: its fields in any order, keys sometimes repeated (JSON.parse keeps the last). */
const block = (tempt: boolean) =>
  fc
    .tuple(
      fc.constantFrom('text', 'thinking', 'tool_result', 'tool_use', 'image', 'other'),
      fc.array(
        fc.tuple(
          fc.constantFrom(
            'text',
            'content',
            'text',
            'content',
            ESCAPED + 'text',
            ESCAPED + 'content',
            'digest',
            'name',
            'id',
            'input',
          ),
          value(tempt),
        ),
        { maxLength: 5 },
      ),
    )
    .map(([type, fields]) => [['type', type] as [string, unknown], ...fields]);

/** The spoof: a block whose escaped text (or content) key holds the text of placeholder 0, 1 or 2. */
const spoof = fc
  .tuple(fc.constantFrom('text', 'thinking', 'tool_result'), fc.nat(2))
  .map(([type, k]) => [
    ['type', type] as [string, unknown],
    [ESCAPED + (type === 'tool_result' ? 'content' : 'text'), '\u0000' + k] as [string, unknown],
  ]);

/** A line's members, as [key, value] pairs (duplicates kept: the writer writes them all). */
type Members = [string, unknown][];

/** An entry; in one that tempts, lookalikes stand anywhere (such a line is mostly parsed whole). */
const entry = fc.boolean().chain((tempt) =>
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'tool'),
    kind: fc.constantFrom('message', 'message', 'message', 'turn_card', 'activity'),
    blocks: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: block(tempt) },
        { weight: 1, arbitrary: value(tempt) },
        { weight: tempt ? 2 : 0, arbitrary: spoof },
      ),
      {
        maxLength: 6,
      },
    ),
    extra: fc.array(fc.tuple(fc.constantFrom('text', 'content', 'meta', 'message'), value(tempt)), { maxLength: 2 }),
    usage: fc.option(fc.nat(5000)),
  }),
);
type Entry = typeof entry extends fc.Arbitrary<infer T> ? T : never;

/** How one line is written: a seed for its choices, and damage (none mostly). */
const writing = fc.record({
  seed: fc.integer(),
  damage: fc.option(fc.tuple(fc.nat(), fc.constantFrom('"', '\\', '{', ']', '\u0001', '\\u00', '\\x', '\u0000')), {
    freq: 6,
  }),
});

/** A small xorshift: the writer's choices, from a seed. */
function chooser(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

/**
 * JSON text of members as another writer might put them: each character of a key or string as
 * JSON.stringify writes it or as a `\u` escape (lower or upper case hex), `/` sometimes `\/`,
 * spaces between tokens.
 */
function writeLine(members: Members, seed: number): string {
  const pick = chooser(seed);
  const ws = () => [' ', '', '', '\t', '', '\r\n'.slice(1)][pick(6)];
  /** `escapes`: how often (of 16) a character is written as a `\u` escape. */
  const str = (t: string, escapes: number) => {
    let out = '"';
    for (const ch of t.split('')) {
      const c = pick(16);
      const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
      if (c < escapes) out += '\\u' + (c % 2 === 0 ? hex : hex.toUpperCase());
      else if (c === 15 && ch === '/') out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return out + '"';
  };
  // A key is written plainly, or with some or all of its characters escaped.
  const key = (k: string) =>
    k.startsWith(ESCAPED) ? str(k.slice(1), [8, 16][pick(2)]) : str(k, [0, 0, 0, 0, 0, 0, 0, 0, 4, 16][pick(10)]);
  const write = (x: unknown): string => {
    if (typeof x === 'string') return str(x, 1);
    if (Array.isArray(x)) {
      // A block (pairs) is written as an object with all its members.
      if (x.length > 0 && x.every((m) => Array.isArray(m) && m.length === 2 && typeof m[0] === 'string'))
        return object(x as Members);
      return '[' + ws() + x.map((e) => write(e)).join(ws() + ',' + ws()) + ws() + ']';
    }
    if (typeof x === 'object' && x !== null) return object(Object.entries(x));
    return JSON.stringify(x) ?? 'null';
  };
  const object = (ms: Members) =>
    '{' + ws() + ms.map(([k, v]) => key(k) + ws() + ':' + ws() + write(v)).join(ws() + ',' + ws()) + ws() + '}';
  return object(members);
}

/** The members of entry `k` (its message's content blocks as pairs, for the writer). */
function membersOf(e: Entry, k: number): Members {
  const ms: Members = [
    ['id', `e${k}`],
    ['parent_id', k === 0 ? null : `e${k - 1}`],
    ['ts', '2026-01-01T00:00:00.000Z'],
    ['prev_hash', null],
    ['kind', k === 0 ? 'header' : e.kind],
  ];
  if (k === 0) return [...ms, ['system_prompt', 's'], ['tools', []]];
  ms.push(['message', [['role', e.role] as [string, unknown], ['content', e.blocks] as [string, unknown], ...e.extra]]);
  if (e.usage !== null) ms.push(['meta', { usage: { input_tokens: e.usage, output_tokens: 1 } }]);
  if (e.kind === 'turn_card') ms.push(['turn_card', { turn_id: `e${k - 1}` }]);
  return ms;
}

/** Makes a `\n`-free line of `text` (its raw newlines only between tokens) damaged as `damage` says. */
function lineOf(text: string, damage: [number, string] | null): string {
  const t = text.replace(/\n/g, ' ');
  if (damage === null) return t;
  const at = damage[0] % (t.length + 1);
  return t.slice(0, at) + damage[1] + t.slice(at);
}

describe('json-skim: the reader with the skimmer reads what it reads without it', () => {
  it('on ledger-shaped lines written to tempt it (escaped keys, U+0000, placeholder lookalikes, damage)', () => {
    let skimmed = 0;
    let skimmedWithNul = 0;
    let tempting = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, writing), { minLength: 2, maxLength: 8 }), (entries) => {
        const lines = entries.map(([e, w], k) => lineOf(writeLine(membersOf(e, k), w.seed), k === 0 ? null : w.damage));
        const bytes = Buffer.from(lines.join('\n') + '\n');
        if (bytes.includes('\\u0000')) tempting++;
        const whole = readWith(bytes, new JsonSkim(Number.POSITIVE_INFINITY));
        expect(whole.skimmed).toBe(0);
        for (const skim of [
          new JsonSkim(0, 12),
          new JsonSkim(0, 200),
          new JsonSkim(),
          new JsonSkim(0, 12, 'content'),
        ]) {
          const got = readWith(bytes, skim);
          expect(got.read).toEqual(whole.read);
          skimmed += got.skimmed;
          skimmedWithNul += got.skimmedWithNul;
        }
      }),
      { numRuns: 300 },
    );
    // (the property saw skimmed lines, lines skimmed of long strings holding U+0000, files tempting)
    expect(skimmed).toBeGreaterThan(150);
    expect(skimmedWithNul).toBeGreaterThan(30);
    expect(tempting).toBeGreaterThan(200);
  });

  it('on the spoof: an escaped text key holding the placeholder of a long string beside it', () => {
    const long = 'x'.repeat(3000);
    for (const spoofKey of ['"t\\u0065xt"', '"\\u0074ext"', '"TEXT"', '"t\\u0065\\u0078t"', '"te\\u0078T"']) {
      for (const spoof of ['"\\u00000"', '"\\u00001"', '"\\u0000"', '"\\u000000"']) {
        const line = (id: string, parent: string | null, content: string) =>
          `{"id":"${id}","parent_id":${parent === null ? 'null' : `"${parent}"`},"ts":"t","prev_hash":null,"kind":"message","message":{"role":"assistant","content":${content}}}`;
        const text = [
          '{"id":"h","parent_id":null,"ts":"t","prev_hash":null,"kind":"header"}',
          line('a', 'h', `[{"type":"text","text":"${long}"},{"type":"text",${spoofKey}:${spoof}}]`),
          line(
            'b',
            'a',
            `[{"type":"text",${spoofKey}:${spoof}},{"type":"thinking","text":"${long}"},{"type":"text","text":"${long}"}]`,
          ),
          line(
            'c',
            'b',
            `[{"type":"tool_result","content":"${long}"},{"type":"tool_result",${spoofKey.replace('ext', 'ontent')}:${spoof}}]`,
          ),
        ].join('\n');
        const bytes = Buffer.from(text + '\n');
        const whole = readWith(bytes, new JsonSkim(Number.POSITIVE_INFINITY)).read;
        expect(readWith(bytes, new JsonSkim()).read).toEqual(whole);
        expect(readWith(bytes, new JsonSkim(0, 12)).read).toEqual(whole);
        expect(readWith(bytes, new JsonSkim(0, 12, 'content')).read).toEqual(whole);
      }
    }
  });
});
