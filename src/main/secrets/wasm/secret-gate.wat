;; The secret gate's word-run rule (secret-gate.ts, mayHoldSecretBytes) over a batch of lines,
;; 64 bytes at a time: each 16 bytes are classified with 128-bit compares into a mask of word
;; bytes (letters, digits, `_`, `-`) and one of those that are no hex digit or dash; runs of 16 or
;; more show as bits left set by four shifted ANDs of the 64-bit word mask. Only such runs (and
;; runs carried over a chunk's edge) are measured one by one.
;;
;; gate(ends, n, out): lines lie back to back from address 0; line k ends at the u32 ends[k]
;; (it starts at ends[k-1], or 0). out[k] gets 1 when line k holds a run of 16 or more word bytes
;; with a non-hex one that is no JSON key (not followed by `":` inside the line), 2 when it does
;; not but may hold the gate's other signs (both `@` and `://`, or `_aut` of `_authToken`, or
;; ` KEY` of `PRIVATE KEY`), which the caller then checks exactly, else 0. At least 80 bytes after the last
;; line must be readable memory (the last chunk reads past the line's end and ignores it).
(module
  (memory (export "memory") 1)

  ;; A run ending at `p` (the line ends at `end`) is a JSON key: `":` follows within the line.
  (func $jsonKey (param $p i32) (param $end i32) (result i32)
    (if (result i32) (i32.lt_u (i32.add (local.get $p) (i32.const 1)) (local.get $end))
      (then (i32.eq (i32.load16_u (local.get $p)) (i32.const 0x3a22)))
      (else (i32.const 0))))

  (func $line (param $start i32) (param $end i32) (result i32)
    (local $base i32) (local $p i32) (local $j i32) (local $valid i32)
    (local $carry i32) (local $cnh i32) (local $t i32) (local $s i32) (local $e i32)
    (local $w i64) (local $nh i64) (local $l i64) (local $m i64)
    (local $v v128) (local $v1 v128) (local $lower v128) (local $n16 v128) (local $w16 v128)
    (local $v2 v128) (local $v3 v128) (local $at v128) (local $sch v128) (local $flag v128)
    (local.set $base (local.get $start))
    (block $done
      (loop $chunk
        (br_if $done (i32.ge_u (local.get $base) (local.get $end)))
        ;; Classify 64 bytes: $w word bytes, $nh those no hex digit or dash.
        (local.set $w (i64.const 0))
        (local.set $nh (i64.const 0))
        (local.set $j (i32.const 0))
        (loop $sub
          (local.set $p (i32.add (local.get $base) (i32.shl (local.get $j) (i32.const 4))))
          (local.set $v (v128.load (local.get $p)))
          (local.set $v1 (v128.load offset=1 (local.get $p)))
          (local.set $lower (v128.or (local.get $v) (i8x16.splat (i32.const 0x20))))
          ;; g-z, G-Z or `_`
          (local.set $n16
            (v128.or
              (i8x16.lt_u (i8x16.sub (local.get $lower) (i8x16.splat (i32.const 0x67))) (i8x16.splat (i32.const 20)))
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5f)))))
          ;; … or 0-9, a-f, A-F, `-`
          (local.set $w16
            (v128.or
              (v128.or (local.get $n16)
                (i8x16.lt_u (i8x16.sub (local.get $v) (i8x16.splat (i32.const 0x30))) (i8x16.splat (i32.const 10))))
              (v128.or
                (i8x16.lt_u (i8x16.sub (local.get $lower) (i8x16.splat (i32.const 0x61))) (i8x16.splat (i32.const 6)))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x2d))))))
          ;; `@`, `://`, `_aut`, ` KEY`: a line without them cannot pass the gate's other checks.
          (local.set $v2 (v128.load offset=2 (local.get $p)))
          (local.set $v3 (v128.load offset=3 (local.get $p)))
          (local.set $at (v128.or (local.get $at) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x40)))))
          (local.set $sch
            (v128.or (local.get $sch)
              (v128.and
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x3a)))
                (v128.and
                  (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x2f)))
                  (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 0x2f)))))))
          (local.set $flag
            (v128.or (local.get $flag)
              (v128.or
                (v128.and
                  (v128.and
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5f)))
                    (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x61))))
                  (v128.and
                    (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 0x75)))
                    (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 0x74)))))
                (v128.and
                  (v128.and
                    (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x20)))
                    (i8x16.eq (local.get $v1) (i8x16.splat (i32.const 0x4b))))
                  (v128.and
                    (i8x16.eq (local.get $v2) (i8x16.splat (i32.const 0x45)))
                    (i8x16.eq (local.get $v3) (i8x16.splat (i32.const 0x59))))))))
          (local.set $w
            (i64.or (local.get $w)
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (local.get $w16)))
                (i64.extend_i32_u (i32.shl (local.get $j) (i32.const 4))))))
          (local.set $nh
            (i64.or (local.get $nh)
              (i64.shl (i64.extend_i32_u (i8x16.bitmask (local.get $n16)))
                (i64.extend_i32_u (i32.shl (local.get $j) (i32.const 4))))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $sub (i32.lt_u (local.get $j) (i32.const 4))))
        ;; Bytes past the line's end are no word bytes.
        (local.set $valid (i32.sub (local.get $end) (local.get $base)))
        (if (i32.lt_u (local.get $valid) (i32.const 64))
          (then
            (local.set $m (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $valid))) (i64.const 1)))
            (local.set $w (i64.and (local.get $w) (local.get $m)))
            (local.set $nh (i64.and (local.get $nh) (local.get $m)))))
        ;; A run carried from the chunk before: it goes on for $t bytes here.
        (if (local.get $carry)
          (then
            (local.set $t (i32.wrap_i64 (i64.ctz (i64.xor (local.get $w) (i64.const -1)))))
            (if (i32.eq (local.get $t) (i32.const 64))
              (then
                (local.set $carry (i32.add (local.get $carry) (i32.const 64)))
                (local.set $cnh (i32.or (local.get $cnh) (i64.ne (local.get $nh) (i64.const 0))))
                (local.set $base (i32.add (local.get $base) (i32.const 64)))
                (br $chunk)))
            (if (i32.and
                  (i32.ge_u (i32.add (local.get $carry) (local.get $t)) (i32.const 16))
                  (i32.or (local.get $cnh)
                    (i64.ne
                      (i64.and (local.get $nh)
                        (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $t))) (i64.const 1)))
                      (i64.const 0))))
              (then
                (if (i32.eqz (call $jsonKey (i32.add (local.get $base) (local.get $t)) (local.get $end)))
                  (then (return (i32.const 1))))))
            (local.set $carry (i32.const 0))
            (local.set $cnh (i32.const 0))
            (local.set $w (i64.and (local.get $w) (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $t)))))))
        ;; A run reaching the chunk's end is carried to the next (or ends with the line).
        (local.set $t (i32.wrap_i64 (i64.clz (i64.xor (local.get $w) (i64.const -1)))))
        (if (local.get $t)
          (then
            (local.set $carry (local.get $t))
            (local.set $cnh
              (i64.ne
                (i64.shr_u (local.get $nh) (i64.extend_i32_u (i32.sub (i32.const 64) (local.get $t))))
                (i64.const 0)))
            (local.set $w
              (i64.and (local.get $w)
                (i64.xor
                  (i64.shl (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (local.get $t))))
                  (i64.const -1))))))
        ;; Bit i of $l: bytes i … i+15 are all word bytes. Each such run is measured.
        (local.set $l (i64.and (local.get $w) (i64.shr_u (local.get $w) (i64.const 1))))
        (local.set $l (i64.and (local.get $l) (i64.shr_u (local.get $l) (i64.const 2))))
        (local.set $l (i64.and (local.get $l) (i64.shr_u (local.get $l) (i64.const 4))))
        (local.set $l (i64.and (local.get $l) (i64.shr_u (local.get $l) (i64.const 8))))
        (block $runs
          (loop $run
            (br_if $runs (i64.eqz (local.get $l)))
            (local.set $s (i32.wrap_i64 (i64.ctz (local.get $l))))
            (local.set $e
              (i32.wrap_i64
                (i64.ctz
                  (i64.and
                    (i64.xor (local.get $w) (i64.const -1))
                    (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $s)))))))
            (if (i64.ne
                  (i64.and (local.get $nh)
                    (i64.and
                      (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $s)))
                      (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (local.get $e))) (i64.const 1))))
                  (i64.const 0))
              (then
                (if (i32.eqz (call $jsonKey (i32.add (local.get $base) (local.get $e)) (local.get $end)))
                  (then (return (i32.const 1))))))
            (local.set $l (i64.and (local.get $l) (i64.shl (i64.const -1) (i64.extend_i32_u (local.get $e)))))
            (br $run)))
        (local.set $base (i32.add (local.get $base) (i32.const 64)))
        (br $chunk)))
    ;; A run that ends with the line (no `":` can follow it).
    (if (i32.and (i32.ge_u (local.get $carry) (i32.const 16)) (local.get $cnh))
      (then (return (i32.const 1))))
    (select (i32.const 2) (i32.const 0)
      (i32.or (v128.any_true (local.get $flag))
        (i32.and (v128.any_true (local.get $at)) (v128.any_true (local.get $sch))))))

  (func (export "gate") (param $ends i32) (param $n i32) (param $out i32)
    (local $k i32) (local $start i32) (local $end i32)
    (block $done
      (loop $lines
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $end (i32.load (i32.add (local.get $ends) (i32.shl (local.get $k) (i32.const 2)))))
        (i32.store8 (i32.add (local.get $out) (local.get $k)) (call $line (local.get $start) (local.get $end)))
        (local.set $start (local.get $end))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $lines))))
)
