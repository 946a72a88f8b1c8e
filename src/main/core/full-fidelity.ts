import { isObject, type Json, type LedgerEntry } from './entry-types';
import type { EntryReader } from './entry-reader';
import { blockTokens, contentString, MESSAGE_OVERHEAD } from './tokens';
import type { LongStrings } from './json-skim';
import { ackFor, toolNameFor, type ChainContext } from './chain-context';

import type { ProjectedRole } from '../../shared/ledger-types';

export interface ShapedMessage {
  role: ProjectedRole;
  content: Json[];
}

/** A message entry as recorded (preamble, open turn): blocks verbatim; null for any other entry. */
export function verbatimMessage(e: LedgerEntry): ShapedMessage | null {
  return e.kind === 'message' ? { role: e.message.role, content: e.message.content } : null;
}

/**
 * Told of each entry as a turn's shaping read it, by chain position (`long`: the measures of a
 * skimmed entry's long strings, valid only during the call), so that a one-pass scan costs it
 * otherwise too without reading it again.
 */
export type EntryRead = (pos: number, e: LedgerEntry, long: LongStrings | null) => void;

/**
 * A message entry of a closed turn at Full fidelity (§5.3): control nudges and
 * thinking dropped, card calls reduced to their ack, tool results to digests.
 * Returns null when nothing is left (or the entry is no message).
 *
 * `turn` is for the messages of one turn shaped in chain order (fullTurn): `scan` reads them
 * for a one-pass scan of costs (`Ledger.scanEntry`: not kept in the entry cache), `read` is told
 * of each entry as read (EntryRead), and `names` collects the tool names of the turn's calls so
 * far, which its tool results look up first instead of reading the calling message again (§5
 * `toolNameFor`: the nearest call before).
 */
export function fullMessage(
  ledger: EntryReader,
  ctx: ChainContext,
  pos: number,
  turn: { scan: boolean; names: Map<string, string>; read?: EntryRead } | null = null,
): ShapedMessage | null {
  const i = ctx.chain[pos];
  let e: LedgerEntry;
  let long: LongStrings | null = null;
  if (turn?.scan) {
    // A tool result's long content is only measured for its digest (most of a big chain's bytes);
    // an entry whose placeholders stand anywhere else is parsed whole.
    ({ entry: e, long } = ledger.skimmedEntry(i));
    if (long !== null && !onlyResultsSkimmed(e, long)) {
      e = ledger.scanEntry(i);
      long = null;
    }
  } else e = ledger.entry(i);
  turn?.read?.(pos, e, long);
  if (turn && e.kind === 'message' && e.message.role === 'assistant') noteToolNames(e.message.content, turn.names);
  if (e.kind !== 'message' || e.controlNudge) return null;
  const { role } = e.message;
  const content = fullContent(
    role,
    e.message.content,
    (id) => ackFor(ledger, ctx, id),
    (id) => turn?.names.get(id) ?? toolNameFor(ledger, ctx, pos, id),
    long,
  );
  return content === null ? null : { role, content };
}

/**
 * Whether every placeholder of a skimmed entry is the content of a tool_result block of a tool
 * message: fullContent then puts a digest in its place, and no placeholder reaches a message.
 * (Each placeholder stands once in the parsed value: counting the blocks that hold one is exact.)
 */
function onlyResultsSkimmed(e: LedgerEntry, long: LongStrings): boolean {
  if (e.kind !== 'message' || e.controlNudge || e.message.role !== 'tool') return false;
  let held = 0;
  for (const b of e.message.content) {
    if (!isObject(b) || b['type'] !== 'tool_result') continue;
    const c = b['content'];
    if (typeof c === 'string' && long.indexOf(c) >= 0) held++;
  }
  return held === long.count;
}

/**
 * A message's blocks at Full (§5.3), or null when none is left: thinking dropped, a card call's
 * input replaced by its ack (`ackOf`: undefined for no card call), a tool result without a digest
 * given a computed one naming its call (`nameOf`). The reader's notes cost the same shape without
 * acks (no ack while noting: an entry with a presented call is shaped from its line, turn-cache.ts)
 * through `fullTokensWithoutAcks`, block by block by the same rules.
 */
export function fullContent(
  role: ProjectedRole,
  blocks: readonly Json[],
  ackOf: (toolUseId: string) => Json | undefined,
  nameOf: (toolUseId: string) => string,
  long: LongStrings | null = null,
): Json[] | null {
  let content: Json[];
  if (role === 'assistant') {
    content = [];
    for (const b of blocks) {
      if (!isObject(b)) continue;
      if (b['type'] === 'thinking') continue;
      const ack = b['type'] === 'tool_use' && typeof b['id'] === 'string' ? ackOf(b['id']) : undefined;
      content.push(ack === undefined ? b : { ...b, input: { ack } });
    }
  } else if (role === 'tool') {
    content = blocks.map((b) => {
      if (!isObject(b) || b['type'] !== 'tool_result') return b;
      const { digest: _digest, ...rest } = b;
      return { ...rest, content: resultDigest(b, nameOf, long) };
    });
  } else content = blocks as Json[];
  return content.length === 0 ? null : content;
}

/**
 * `messageTokens(fullContent(role, blocks, no ack, nameOf), bpt)`, or null where that shapes to
 * nothing, without shaping: the reader's notes cost every message of a file (full-notes.ts), and
 * copying each tool result's block to cost it took ~80 ms of CPU from a 100 MB first open. The same
 * rules block by block (full-fidelity.test.ts checks the two agree on every message it can make).
 */
export function fullTokensWithoutAcks(
  role: ProjectedRole,
  blocks: readonly Json[],
  nameOf: (toolUseId: string) => string,
  bpt: number,
  long: LongStrings | null = null,
): number | null {
  let tokens = MESSAGE_OVERHEAD;
  let kept = 0;
  for (const b of blocks) {
    if (!isObject(b)) {
      if (role !== 'assistant') kept++; // kept, and costs nothing
      continue;
    }
    if (role === 'assistant' && b['type'] === 'thinking') continue;
    kept++;
    tokens +=
      role === 'tool' && b['type'] === 'tool_result'
        ? Math.ceil(resultDigestBytes(b, nameOf, long) / bpt)
        : blockTokens(b, bpt, long);
  }
  return kept === 0 ? null : tokens;
}

/**
 * A tool result's content at Full: its recorded digest, else one computed naming its call.
 * `long`: the block is of a line parsed skimmed (json-skim.ts).
 */
function resultDigest(
  b: Record<string, Json>,
  nameOf: (toolUseId: string) => string,
  long: LongStrings | null,
): string {
  const digest = b['digest'];
  if (typeof digest === 'string') return digest;
  const { lines, bytes } = contentMeasures(contentString(b['content']), long);
  return computedDigest(callName(b, nameOf), lines, bytes, b['is_error'] === true);
}

/** Lines and UTF-8 bytes of a result's content string, or of the long string it is a placeholder for. */
function contentMeasures(content: string, long: LongStrings | null): { lines: number; bytes: number } {
  const k = long === null ? -1 : long.indexOf(content);
  if (k >= 0) return { lines: (long as LongStrings).lineCount(k), bytes: (long as LongStrings).bytes[k] };
  return { lines: lineCount(content), bytes: Buffer.byteLength(content, 'utf8') };
}

/**
 * UTF-8 bytes of `resultDigest(b, nameOf)`, without writing a computed one (the reader's notes
 * cost every tool result of a file). `long`: the block is of a line parsed skimmed (json-skim.ts).
 */
function resultDigestBytes(
  b: Record<string, Json>,
  nameOf: (toolUseId: string) => string,
  long: LongStrings | null,
): number {
  const digest = b['digest'];
  if (typeof digest === 'string') return Buffer.byteLength(digest, 'utf8');
  const { lines, bytes } = contentMeasures(contentString(b['content']), long);
  return computedDigestBytes(callName(b, nameOf), lines, bytes, b['is_error'] === true);
}

/** The name a computed digest gives a result's call. */
function callName(b: Record<string, Json>, nameOf: (toolUseId: string) => string): string {
  // A tool_use_id that is no string names no call (and String() of a deep array would recurse).
  return typeof b['tool_use_id'] === 'string' ? nameOf(b['tool_use_id']) : 'unknown';
}

/**
 * Notes an assistant message's tool calls by id, as toolNameFor finds them (an object block with a
 * string name; in the nearest message, its first such block: hence backwards, the first set last).
 */
function noteToolNames(content: readonly Json[], names: Map<string, string>): void {
  for (let k = content.length - 1; k >= 0; k--) {
    const b = content[k];
    if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string' && typeof b['name'] === 'string') {
      names.set(b['id'], b['name']);
    }
  }
}

/** "[<name> result: <L> lines, <B> bytes]" (or "error") for a result without a recorded digest. */
function computedDigest(name: string, lines: number, bytes: number, isError: boolean): string {
  return `[${name} ${isError ? 'error' : 'result'}: ${lines} lines, ${bytes} bytes]`;
}

/** UTF-8 bytes of that digest: its 19 fixed bytes ("[", " ", ": ", " lines, ", " bytes]"), name, kind, numbers. */
function computedDigestBytes(name: string, lines: number, bytes: number, isError: boolean): number {
  return 19 + Buffer.byteLength(name, 'utf8') + (isError ? 5 : 6) + String(lines).length + String(bytes).length;
}

/** 0 when empty, else the count of `\n` plus one, a final `\n` not starting a new line. */
export function lineCount(s: string): number {
  if (s.length === 0) return 0;
  let n = 1;
  for (let k = s.indexOf('\n'); k >= 0; k = s.indexOf('\n', k + 1)) n++;
  if (s.endsWith('\n')) n--;
  return n;
}
