/**
 * The skimmed parse (json-skim.ts) is the whole parse but for the long strings it measures: the
 * text parses exactly when the line does, to the same value once each placeholder is given back
 * its string, and each placeholder's measures are those of its string. A reader that skims every
 * line it can reads every fixture and generated session as one that parses them whole. (Lines
 * written to pass their own strings off as placeholders: json-skim.fuzz.test.ts.)
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../shared/ledger-types';
import { generateSession } from '../../generator';
import { ledgerBytes } from '../../reliability/ledger-lines';
import { fixtureCases } from '../../test-support/fixtures';
import { FullNotes } from './full-notes';
import { lineCount } from './full-fidelity';
import { JsonSkim, SKIM_MIN_LINE, SKIM_MIN_STRING } from './json-skim';
import { LedgerIndex } from './ledger-index';
import { LineFeeder } from './line-feeder';
import { LineReader } from './line-reader';

const BPT = DEFAULT_PROFILE.bytes_per_token;
/** Skims every line, and every string of 12 raw bytes or more at the skimmed places. */
const eager = () => new JsonSkim(0, 12);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Skims `text` and checks it against JSON.parse of the whole; returns how many placeholders the
 * parsed value holds.
 */
function expectSkimmedSame(text: string, skim = eager()): number {
  const want = parsed(text);
  const got = parsed(skim.text(atAnyOffset(text)));
  expect(got.ok).toBe(want.ok);
  return want.ok && got.ok ? placeholdersGivenBack(want.value, got.value, skim) : 0;
}

/** `text`'s bytes at an offset into their memory of 0 to 3 (the lexer reads aligned words). */
function atAnyOffset(text: string): Buffer {
  const bytes = Buffer.from(text);
  const shift = bytes.length % 4;
  const into = Buffer.alloc(bytes.length + shift);
  bytes.copy(into, shift);
  return into.subarray(shift);
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Gives each placeholder of `got` back the string of `want` it stands for (checking its measures); then the two are equal. */
function placeholdersGivenBack(want: unknown, got: unknown, skim: JsonSkim): number {
  let given = 0;
  // Placeholders stand only at message.content[*].text and .content: give their strings back there.
  const blocks = isObj(got) && isObj(got['message']) ? got['message']['content'] : undefined;
  if (Array.isArray(blocks)) {
    const wanted = ((want as Obj)['message'] as Obj)['content'] as unknown[];
    blocks.forEach((b, n) => {
      if (!isObj(b)) return;
      for (const key of ['text', 'content']) {
        const s = b[key];
        const k = typeof s === 'string' ? skim.long.indexOf(s) : -1;
        if (k < 0) continue;
        const real = (wanted[n] as Obj)[key] as string;
        expect(skim.long.bytes[k]).toBe(Buffer.byteLength(real, 'utf8'));
        expect(skim.long.lineCount(k)).toBe(lineCount(real));
        b[key] = real;
        given++;
      }
    });
  }
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
  return given;
}

/**
 * Characters that JSON writes escaped or that UTF-8 writes in several bytes, and plain ones.
 * (Not U+0000: a line holding it outside its long strings is parsed whole, so a property over
 * lines full of it would see few skimmed; json-skim.fuzz.test.ts writes it where it counts.)
 */
const TRICKY = [
  'a',
  'b',
  ' ',
  '\n',
  '\r',
  '\t',
  '"',
  '\\',
  '/',
  '\u0001',
  '\u001f',
  'é',
  '€',
  '😀',
  '\ud800',
  '\udc00',
  '\u2028',
];
const str = (maxLength: number, minLength = 0) => fc.string({ unit: fc.constantFrom(...TRICKY), minLength, maxLength });

/**
 * JSON text of `v` as another writer might put it: every character of a string either as
 * JSON.stringify writes it or as a `\u` escape (either case), `/` sometimes as `\/`, and spaces
 * between tokens; `seed` picks.
 */
function writeJson(v: unknown, seed: number): string {
  let s = seed >>> 0 || 1;
  const pick = (n: number) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
  const ws = () => [' ', '', '', '\t', ''][pick(5)];
  const str = (t: string) => {
    let out = '"';
    for (const ch of t.split('')) {
      const c = pick(6);
      const hex = ch.charCodeAt(0).toString(16).padStart(4, '0');
      if (c === 0) out += '\\u' + hex;
      else if (c === 1) out += '\\u' + hex.toUpperCase();
      else if (c === 2 && ch === '/') out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return out + '"';
  };
  const write = (x: unknown): string => {
    if (typeof x === 'string') return str(x);
    if (Array.isArray(x)) return '[' + ws() + x.map((e) => write(e)).join(ws() + ',' + ws()) + ws() + ']';
    if (isObj(x)) {
      const members = Object.keys(x).map((k) => str(k) + ws() + ':' + ws() + write(x[k]));
      return '{' + ws() + members.join(',' + ws()) + ws() + '}';
    }
    return JSON.stringify(x) ?? 'null';
  };
  return write(v);
}

const block = fc.record(
  {
    type: fc.constantFrom('text', 'thinking', 'tool_result', 'tool_use', 'image'),
    text: fc.oneof({ arbitrary: str(120, 10), weight: 4 }, str(12), fc.jsonValue({ maxDepth: 2 })),
    content: fc.oneof({ arbitrary: str(120, 10), weight: 4 }, str(12), fc.jsonValue({ maxDepth: 2 })),
    input: fc.oneof(fc.record({ text: str(40), content: str(40) }), fc.jsonValue({ maxDepth: 2 })),
    digest: str(20),
  },
  { requiredKeys: ['type'] },
);
const lineValue = fc.record(
  {
    id: str(30),
    parent_id: fc.oneof(str(30), fc.constant(null)),
    kind: fc.constantFrom('message', 'activity', 'compaction'),
    message: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            role: fc.constantFrom('user', 'assistant', 'tool'),
            content: fc.array(fc.oneof({ arbitrary: block, weight: 4 }, str(40), fc.jsonValue({ maxDepth: 2 })), {
              maxLength: 5,
            }),
            text: str(40),
          },
          { requiredKeys: ['content'] },
        ),
      },
      fc.jsonValue({ maxDepth: 3 }),
    ),
    meta: fc.record({ usage: fc.record({ input_tokens: fc.nat() }), content: str(40) }),
  },
  { requiredKeys: ['message'] },
);

describe('json-skim', () => {
  it('a skimmed line parses to the whole line but for its long strings, whose measures are theirs', () => {
    let given = 0;
    fc.assert(
      fc.property(lineValue, fc.integer(), (v, seed) => {
        given += expectSkimmedSame(JSON.stringify(v));
        given += expectSkimmedSame(writeJson(v, seed));
      }),
      { numRuns: 600 },
    );
    console.log('given', given);
    expect(given).toBeGreaterThan(500); // (the property saw placeholders, not only lines left whole)
  });

  it('a damaged line parses skimmed exactly when it parses whole', () => {
    const damage = fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', 'x', '\t', '\u0001', '\\u12', '\\ud8');
    let invalid = 0;
    fc.assert(
      fc.property(lineValue, fc.integer(), fc.nat(), fc.nat(40), damage, (v, seed, at, cut, insert) => {
        const text = writeJson(v, seed);
        const p = at % (text.length + 1);
        const damaged = text.slice(0, p) + insert + text.slice(p + (cut % 3 === 0 ? cut : 0));
        if (!isUtf8(Buffer.from(damaged))) return; // (the reader reports such a line before parsing it)
        try {
          JSON.parse(damaged);
        } catch {
          invalid++;
        }
        expectSkimmedSame(damaged);
      }),
      { numRuns: 800 },
    );
    expect(invalid).toBeGreaterThan(400);
  });

  it('strings elsewhere stay: keys, ids, tool inputs, text outside message.content', () => {
    const long = 'x'.repeat(300);
    const skim = new JsonSkim(0, SKIM_MIN_STRING);
    const line = {
      id: long,
      [long]: 1,
      text: long,
      message: { text: long, content: [{ type: 'tool_use', input: { text: long, content: long } }, [long]] },
      meta: { content: [{ text: long }] },
    };
    expect(skim.text(Buffer.from(JSON.stringify(line)))).toBe(JSON.stringify(line));
    expect(skim.long.count).toBe(0);
  });

  it('skims text and tool result strings, each of its own measures', () => {
    const skim = new JsonSkim();
    const result = 'line\n'.repeat(500);
    const said = 'é😀'.repeat(400);
    const line = JSON.stringify({
      id: 'e',
      message: {
        role: 'tool',
        content: [
          { type: 'tool_result', content: result },
          { type: 'text', text: said },
        ],
      },
    });
    expect(line.length).toBeGreaterThan(SKIM_MIN_LINE);
    const parsed = JSON.parse(skim.text(Buffer.from(line)));
    expect(skim.long.count).toBe(2);
    const [r, t] = parsed.message.content;
    expect(skim.long.indexOf(r.content)).toBe(0);
    expect(skim.long.indexOf(t.text)).toBe(1);
    expect([skim.long.bytes[0], skim.long.lineCount(0)]).toEqual([Buffer.byteLength(result), lineCount(result)]);
    expect([skim.long.bytes[1], skim.long.lineCount(1)]).toEqual([Buffer.byteLength(said), lineCount(said)]);
    // The next line's strings are themselves again (a short line is not skimmed).
    expect(skim.text(Buffer.from('{"message":{"content":[{"text":"\\u00000"}]}}'))).toContain('\\u00000');
    expect(skim.long.indexOf('\u00000')).toBe(-1);
  });

  it('leaves a line whole where a placeholder could be taken for a real string, or there are too many', () => {
    const skim = eager();
    const real = JSON.stringify({ message: { content: [{ text: 'x'.repeat(40) }, { text: '\u00001' }] } });
    expect(skim.text(Buffer.from(real))).toBe(real);
    expect(skim.long.count).toBe(0);
    // Wherever U+0000 stands outside the long strings: under an escaped key, in a key, an id.
    const long = 'x'.repeat(40);
    for (const line of [
      `{"message":{"content":[{"text":"${long}"},{"t\\u0065xt":"\\u00000"}]}}`,
      `{"message":{"content":[{"text":"${long}"},{"type":"text","text":"ok","\\u00000":1}]}}`,
      `{"id":"\\u00000","message":{"content":[{"text":"${long}"}]}}`,
      `{"id":"\\\\u00000","message":{"content":[{"text":"${long}"}]}}`, // (a backslash, then "u00000": left whole too)
    ]) {
      expect(skim.text(Buffer.from(line))).toBe(line);
      expect(skim.long.count).toBe(0);
    }
    // In a long string it is skimmed with it.
    const inLong = `{"message":{"content":[{"text":"${long}\\u00000"}]}}`;
    expect(skim.text(Buffer.from(inLong))).toBe('{"message":{"content":[{"text":"\\u00000"}]}}');
    expect(skim.long.count).toBe(1);
    expect(skim.long.bytes[0]).toBe(42);
    const many = JSON.stringify({
      message: { content: Array.from({ length: 200 }, () => ({ text: 'y'.repeat(40) })) },
    });
    expect(skim.text(Buffer.from(many))).toBe(many);
    expect(skim.long.count).toBe(0);
  });

  it('a reader skimming every line it can reads fixtures and generated sessions as one parsing them whole', () => {
    const tricky = ledgerBytes([
      { id: 'h', parent_id: null, kind: 'header', session_id: 's', system_prompt: 'sys', tools: [], cwd: '/w' },
      {
        id: 'u',
        parent_id: 'h',
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text: 'é\n'.repeat(30) }] },
      },
      {
        id: 'a',
        parent_id: 'u',
        kind: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'read', input: { p: 'x'.repeat(50) } }],
        },
      },
      {
        id: 'r',
        parent_id: 'a',
        kind: 'message',
        message: {
          role: 'tool',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: '\ud800 lone\n😀\n'.repeat(9) },
            { type: 'tool_result', tool_use_id: 't1', content: 'kept', digest: 'd'.repeat(30) },
            { type: 'text', text: '\u0000 starts with nul, long enough' },
          ],
        },
      },
      {
        id: 'bad',
        parent_id: 'r',
        kind: 'message',
        message: { role: 'user', content: [{ type: 'text', text: 'q'.repeat(30) }] },
      },
    ]);
    const torn = Buffer.concat([
      tricky,
      Buffer.from('{"id":"t","message":{"content":[{"text":"' + 'z'.repeat(40) + '\\x"}]}}\n'),
    ]);
    const sessions = [
      tricky,
      torn,
      generateSession({ seed: 21, entries: 1500, cwd: '/w', branchChance: 0.05, toolResultBytes: [100, 900] }).bytes,
      ...fixtureCases().map((c) => readFileSync(c.file)),
    ];
    const read = (bytes: Buffer, skim: JsonSkim) => {
      const index = new LedgerIndex();
      const notes = new FullNotes(BPT, true);
      const reader = new LineReader(index, notes, skim);
      new LineFeeder(reader, 0).push(bytes);
      const n = index.count;
      return {
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
    };
    let noted = 0;
    for (const bytes of sessions) {
      const whole = read(bytes, new JsonSkim(Number.POSITIVE_INFINITY));
      expect(read(bytes, eager())).toEqual(whole);
      expect(read(bytes, new JsonSkim())).toEqual(whole);
      noted += whole.tokens.filter((t) => typeof t === 'number').length;
    }
    expect(noted).toBeGreaterThan(500);
  });
});
