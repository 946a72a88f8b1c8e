;; index-links: checks the entry arrays of a kept index and links each entry to its parent (issue 9,
;; "Reopen is instant"). restoreIndex (ledger-snapshot.ts) did this in a loop of its own, ~40 ms for
;; 36k entries in code still cold on a reopen; WebAssembly runs compiled from the first call.
;;
;; The caller puts the arrays of entries [from, to) in memory (each at an address it chooses,
;; aligned to its element size; element k is entry from + k), a chunk at a time in file order:
;;   parent   i32   an earlier entry's index, -1 (no parent) or -2 (orphan)
;;   kind     u8    below `kinds` (the known kinds) or 255 (unknown)
;;   offset   f64   an integer, at or after the end of the previous line
;;   length   u32   the line's bytes; offset + length < covered (its `\n` is inside the covered bytes)
;;   line     u32   increasing, at most `lines`
;; and space for the links of all the entries, written as LedgerIndex.add does (indexed by entry):
;;   first, last, next   i32   -1 before the first chunk
;;   count               u32   0 before the first chunk: children per entry
;; The end of the previous line and the previous line number carry from chunk to chunk.
;; `link` returns 0, or the first problem met in file order: 1 parent links, 2 kind codes, 3 offsets,
;; 4 line numbers (the checks and their order are those of linkEntriesJs in index-links.ts, which
;; runs where WebAssembly cannot: a property test runs both on the same arrays).
;;
;; Build: `node scripts/build-wasm.mjs` writes index-links-wasm.ts (checked by a test).
(module
  (import "env" "memory" (memory 1))

  (global $prevEnd (mut f64) (f64.const 0))
  (global $prevLine (mut f64) (f64.const 0))

  (func (export "link")
    (param $from i32) (param $to i32) (param $kinds i32) (param $covered f64) (param $lines f64)
    (param $parent i32) (param $kind i32) (param $offset i32) (param $length i32) (param $line i32)
    (param $first i32) (param $last i32) (param $next i32) (param $count i32)
    (result i32)
    (local $i i32) (local $p i32) (local $k i32) (local $off f64) (local $ln f64)
    (local $lc i32) (local $at i32)
    (if (i32.eqz (local.get $from))
      (then (global.set $prevEnd (f64.const 0)) (global.set $prevLine (f64.const 0))))
    (local.set $i (local.get $from))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $to)))
        ;; This entry's place in the chunk's arrays.
        (local.set $at (i32.shl (i32.sub (local.get $i) (local.get $from)) (i32.const 2)))
        ;; Parent: none, an orphan, or an earlier entry.
        (local.set $p (i32.load (i32.add (local.get $parent) (local.get $at))))
        (if (i32.and
              (i32.and (i32.ne (local.get $p) (i32.const -1)) (i32.ne (local.get $p) (i32.const -2)))
              (i32.or (i32.lt_s (local.get $p) (i32.const 0)) (i32.ge_s (local.get $p) (local.get $i))))
          (then (return (i32.const 1))))
        ;; Kind: a known one's code, or 255.
        (local.set $k (i32.load8_u (i32.add (local.get $kind) (i32.sub (local.get $i) (local.get $from)))))
        (if (i32.and (i32.ge_u (local.get $k) (local.get $kinds)) (i32.ne (local.get $k) (i32.const 255)))
          (then (return (i32.const 2))))
        ;; Offset: an integer (NaN and infinities are not: trunc(NaN) != NaN, and ∞ + len < covered fails),
        ;; not before the end of the previous line, its line inside the covered bytes.
        (local.set $off (f64.load (i32.add (local.get $offset) (i32.shl (local.get $at) (i32.const 1)))))
        (local.set $ln
          (f64.add (local.get $off)
            (f64.convert_i32_u (i32.load (i32.add (local.get $length) (local.get $at))))))
        (if (i32.or
              (i32.or
                (i32.eqz (f64.ge (local.get $off) (global.get $prevEnd)))
                (f64.ne (f64.trunc (local.get $off)) (local.get $off)))
              (i32.eqz (f64.lt (local.get $ln) (local.get $covered))))
          (then (return (i32.const 3))))
        (global.set $prevEnd (f64.add (local.get $ln) (f64.const 1)))
        ;; Line numbers: increasing, at most the lines read.
        (local.set $ln (f64.convert_i32_u (i32.load (i32.add (local.get $line) (local.get $at)))))
        (if (i32.or
              (i32.eqz (f64.gt (local.get $ln) (global.get $prevLine)))
              (f64.gt (local.get $ln) (local.get $lines)))
          (then (return (i32.const 4))))
        (global.set $prevLine (local.get $ln))
        ;; The entry is its parent's last child so far (LedgerIndex.add).
        (if (i32.ge_s (local.get $p) (i32.const 0))
          (then
            (local.set $p (i32.shl (local.get $p) (i32.const 2)))
            (local.set $lc (i32.load (i32.add (local.get $last) (local.get $p))))
            (if (i32.lt_s (local.get $lc) (i32.const 0))
              (then (i32.store (i32.add (local.get $first) (local.get $p)) (local.get $i)))
              (else (i32.store (i32.add (local.get $next) (i32.shl (local.get $lc) (i32.const 2))) (local.get $i))))
            (i32.store (i32.add (local.get $last) (local.get $p)) (local.get $i))
            (i32.store (i32.add (local.get $count) (local.get $p))
              (i32.add (i32.load (i32.add (local.get $count) (local.get $p))) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    (i32.const 0))
)
