/**
 * The API of one entry's line and of any physical line by offset, both read in slices so that
 * no reply carries a whole big line. Part of `ApiMethods` (api.ts). Plain types and limits only: the renderer imports it (through api.ts).
 */
import type { Json } from './ledger-types';

export interface EntryDetail {
  id: string;
  index: number;
  line: number;
  offset: number;
  length: number;
  kind: string;
  /**
   * A slice of the line's bytes as text: `sliceStart … sliceEnd` of the line's `length`
   * bytes, at most `maxBytes` (default 256 KiB, at most MAX_SLICE_BYTES), never splitting
   * a UTF-8 sequence. A big line is read in slices: ask again with `sliceStart: sliceEnd`.
   */
  raw: string;
  /** Byte of the line where `raw` starts (the request's `sliceStart`, default 0). */
  sliceStart: number;
  /** Byte of the line where `raw` ends; less than `length` while more of the line remains. */
  sliceEnd: number;
  /** True when `raw` is not the whole line (`sliceStart > 0` or `sliceEnd < length`). */
  truncated: boolean;
  /** The parsed entry, or null when `raw` is not the whole line. */
  json: Json | null;
  /**
   * Why a known kind's payload is not the shape of its kind (the core's `malformed` case,
   * shown raw with this note), or null when it is.
   */
  problem: string | null;
}

/**
 * Largest slice of a line one reply carries (`getEntry`, `getLine`): bigger lines are paged,
 * so one request never makes the server hold or send more than this (JSON escaping aside).
 */
export const MAX_SLICE_BYTES = 2 * 1024 * 1024;

/**
 * Any physical line by its byte offset, whether or not it is an entry: what a
 * warning points at (a torn line, an invalid entry, the unterminated tail).
 */
export interface RawLine {
  offset: number;
  /** Bytes up to (not including) the `\n`; null when clipped before the `\n` was found. */
  length: number | null;
  /** The bytes as text, clipped to `maxBytes` (default 64 KiB); invalid UTF-8 shows as U+FFFD. */
  text: string;
  /** Bytes of the file `text` covers from `offset`: the next slice of a longer line starts at `offset + bytes`. */
  bytes: number;
  validUtf8: boolean;
  /** False for the file's last line when it has no `\n` yet. */
  terminated: boolean;
  truncated: boolean;
}
