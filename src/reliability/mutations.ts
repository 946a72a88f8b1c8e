import fc from 'fast-check';
import { deepText } from './ledger-lines';

/**
 * Damage done to a copy of a fixture ledger, as fast-check values (so a failing case
 * shrinks and replays from its seed). Positions are fractions of the file or of its
 * lines, so one mutation fits every fixture.
 */
export type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'truncate'; at: number }
  | { op: 'insertBytes'; at: number; bytes: number[] }
  | { op: 'invalidUtf8'; at: number; seq: number[] }
  | { op: 'insertLine'; at: number; line: LineKind; parentAt: number; salt: number }
  | { op: 'huge'; at: number; parentAt: number; megabytes: number };

/** What an inserted line is (most are valid entries, so they reach projection). */
export type LineKind =
  | { kind: 'garbage'; text: string }
  | { kind: 'deep'; where: DeepPlace; depth: number; shape: 'array' | 'object' }
  | { kind: 'builtin'; name: BuiltinName; where: BuiltinPlace };

export type DeepPlace = 'tool_use' | 'tool_result' | 'intent' | 'work' | 'unknown' | 'meta' | 'block';
export type BuiltinName = '__proto__' | 'constructor' | 'toString' | 'hasOwnProperty' | 'valueOf';
export type BuiltinPlace = 'id' | 'kind' | 'directive' | 'tool_name' | 'work_id' | 'keys' | 'card';

/** A position in [0, 1), spread evenly (fc.double leans to 0 and tiny values). */
const at = fc.integer({ min: 0, max: 9_999 }).map((n) => n / 10_000);

const lineKind: fc.Arbitrary<LineKind> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('garbage' as const), text: fc.string({ maxLength: 40 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      where: fc.constantFrom<DeepPlace>('tool_use', 'tool_result', 'intent', 'work', 'unknown', 'meta', 'block'),
      depth: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 4_000, max: 20_000 })),
      shape: fc.constantFrom<'array' | 'object'>('array', 'object'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('builtin' as const),
      // `__proto__` is the name that breaks plain objects outright: drawn most often.
      name: fc.oneof(
        { weight: 3, arbitrary: fc.constant<BuiltinName>('__proto__') },
        { weight: 2, arbitrary: fc.constantFrom<BuiltinName>('constructor', 'toString', 'hasOwnProperty', 'valueOf') },
      ),
      where: fc.constantFrom<BuiltinPlace>('id', 'kind', 'directive', 'tool_name', 'work_id', 'keys', 'card'),
    }),
  },
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('flip' as const), at, bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('insertBytes' as const),
      at,
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 12 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('invalidUtf8' as const),
      at,
      seq: fc.constantFrom([0xff], [0xc0, 0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80]),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('insertLine' as const),
      at,
      line: lineKind,
      parentAt: at,
      salt: fc.nat(1_000_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('huge' as const),
      at,
      parentAt: at,
      megabytes: fc.integer({ min: 2, max: 5 }),
    }),
  },
);

const ID = /"id":"((?:[^"\\]|\\.)*)"/;

/** Entry ids found in the lines of a file (for parents of inserted entries). */
function idsOf(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const m = ID.exec(l);
    if (m) out.push(JSON.parse(`"${m[1]}"`) as string);
  }
  return out;
}

/** The text of an inserted line: a valid entry (wrong prev_hash: kept, with hash_mismatch) or garbage. */
function insertedLine(line: LineKind, parent: string | null, salt: number): string {
  const common = `"id":"fz${salt}","parent_id":${JSON.stringify(parent)},"ts":"2026-01-01T00:00:00.000Z","prev_hash":"0"`;
  if (line.kind === 'garbage') return line.text.replace(/\n/g, ' ');
  if (line.kind === 'deep') {
    const v = deepText(line.depth, line.shape);
    switch (line.where) {
      case 'tool_use':
        return `{${common},"kind":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"fzt${salt}","name":"t","input":${v}}]}}`;
      case 'tool_result':
        return `{${common},"kind":"message","message":{"role":"tool","content":[{"type":"tool_result","tool_use_id":"fzt${salt}","content":${v}}]}}`;
      case 'intent':
        return `{${common},"kind":"intent","intent":{"reading":${v},"model_visible":${v}}}`;
      case 'work':
        return `{${common},"kind":"work","work":{"work_id":"w","event":"e","state":${v},"detail":${v}}}`;
      case 'unknown':
        return `{${common},"kind":"fuzz_kind","payload":${v}}`;
      case 'meta':
        return `{${common},"kind":"message","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"meta":{"control":${v},"usage":${v}}}`;
      case 'block':
        return `{${common},"kind":"message","message":{"role":"user","content":[${v},{"type":"image","media_type":${v}}]}}`;
    }
  }
  const n = JSON.stringify(line.name);
  const withId = (id: string) =>
    `"id":${JSON.stringify(id)},"parent_id":${JSON.stringify(parent)},"ts":"2026-01-01T00:00:00.000Z","prev_hash":"0"`;
  switch (line.where) {
    case 'id':
      return `{${withId(line.name)},"kind":"goal","goal":{"objective":"o","criteria":[]}}`;
    case 'kind':
      return `{${withId(line.name)},"kind":${n},"payload":1}`;
    case 'directive':
      return `{${withId(line.name)},"kind":"message","message":{"role":"user","content":[{"type":"text","text":"go"}]}}`;
    case 'tool_name':
      return `{${common},"kind":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":${n},"name":${n},"input":{${n}:1}}]}}`;
    case 'work_id':
      return `{${common},"kind":"work","work":{"work_id":${n},"event":${n},"state":{${n}:${n}}}}`;
    case 'keys':
      return `{${common},"kind":"message",${n}:{"x":1},"message":{"role":"assistant","content":[{"type":"text","text":"t",${n}:2}],${n}:3},"meta":{${n}:{"control":1}}}`;
    case 'card':
      return `{${common},"kind":"turn_card","turn_card":{"turn_id":${n},"line":${n}}}`;
  }
}

/** Applies `muts` in order to a copy of `bytes`. */
export function mutate(bytes: Buffer, muts: readonly Mutation[]): Buffer {
  let b = Buffer.from(bytes);
  for (const m of muts) {
    const pos = Math.floor(m.at * (b.length + 1));
    switch (m.op) {
      case 'flip':
        if (b.length > 0) b[Math.min(pos, b.length - 1)] ^= 1 << m.bit;
        break;
      case 'truncate':
        b = b.subarray(0, pos);
        break;
      case 'insertBytes':
      case 'invalidUtf8': {
        const ins = Buffer.from(m.op === 'insertBytes' ? m.bytes : m.seq);
        b = Buffer.concat([b.subarray(0, pos), ins, b.subarray(pos)]);
        break;
      }
      case 'insertLine':
      case 'huge': {
        const lines = b.toString('latin1').split('\n');
        const ids = idsOf(lines.map((l) => Buffer.from(l, 'latin1').toString('utf8')));
        // Half the time the line goes at the end under the last entry: it becomes the
        // active leaf, so the panes and the default projection meet it.
        const atEnd = m.at >= 0.5;
        const parent = ids.length === 0 ? null : atEnd ? ids[ids.length - 1] : ids[Math.floor(m.parentAt * ids.length)];
        const text =
          m.op === 'huge'
            ? `{"id":"fzhuge","parent_id":${JSON.stringify(parent)},"ts":"2026-01-01T00:00:00.000Z","prev_hash":"0","kind":"message","message":{"role":"assistant","content":[{"type":"text","text":"${'x'.repeat(m.megabytes << 20)}"}]}}`
            : insertedLine(m.line, parent, m.salt);
        const last = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
        const k = atEnd ? last : Math.floor(m.at * 2 * lines.length);
        const line = Buffer.from(text, 'utf8').toString('latin1');
        lines.splice(k, 0, line);
        b = Buffer.from(lines.join('\n'), 'latin1');
        break;
      }
    }
  }
  return b;
}
