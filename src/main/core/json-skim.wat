;; json-skim: finds the long strings of a ledger line that a first read only measures (issue 9).
;;
;; A line's JSON text is at INPUT (4096) in memory, `len` bytes, valid UTF-8 (the reader checked).
;; `skim` tokenizes it as a JSON lexer does (a `"` outside a string opens one; inside, `\` escapes
;; the next byte, `"` closes it) and follows the path message.content[*] by its brackets and keys.
;; For each string value at message.content[*].text or message.content[*].content (the text of a
;; text or thinking block, the content of a tool result) of at least `minLong` raw bytes, quotes
;; included, it writes a record of 5 x i32 at address 20 k (below the keys at 3072: 153 at most)
;;   start, end      the token's byte range in the line (end exclusive, after the closing quote)
;;   bytes           UTF-8 bytes of the decoded string (a lone surrogate counts 3: U+FFFD)
;;   newlines        `\n` characters in the decoded string
;;   endsNewline     1 when its last character is `\n`
;; and returns how many it wrote, or -1 when the line should be parsed as it is: a string that is
;; no valid JSON string (JSON.parse of the whole line reports it), an unterminated one, more than
;; `maxRecords` long strings, a `}`/`]` without its opener, or a short string at such a place that
;; starts with U+0000 (written `\u0000`: the placeholders the caller puts in place of long strings
;; start so; a real string must never be taken for one).
;;
;; Replacing a whole string token by another string token changes no other token, so the shorter
;; text is valid JSON exactly when the line is, and parses to the same value but for those strings.
;; Structure outside strings is not checked here: JSON.parse checks it.
;;
;; Build: `node scripts/build-wasm.mjs` writes json-skim-wasm.ts (checked by a test).
(module
  ;; 4 KiB of records and keys, then a line of up to 4 MiB and 16 bytes a SIMD load may read past
  ;; it: 65 pages, never grown (growing detaches the memory's ArrayBuffer, and V8 then drops the
  ;; optimized code of every function that reads a typed array, on that thread, once).
  (memory (export "memory") 65 65)
  ;; The keys the path follows, as raw bytes.
  (data (i32.const 3072) "message")
  (data (i32.const 3080) "content")
  (data (i32.const 3088) "text")

  ;; Facts of the last string scanned by $string.
  (global $saved (mut i32) (i32.const 0))
  (global $newlines (mut i32) (i32.const 0))
  (global $endsNewline (mut i32) (i32.const 0))

  ;; A hex digit's value, or -1.
  (func $hex (param $c i32) (result i32)
    (if (i32.le_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 9))
      (then (return (i32.sub (local.get $c) (i32.const 48)))))
    (local.set $c (i32.or (local.get $c) (i32.const 32))) ;; lower case
    (if (i32.le_u (i32.sub (local.get $c) (i32.const 97)) (i32.const 5))
      (then (return (i32.sub (local.get $c) (i32.const 87)))))
    (i32.const -1))

  ;; The code unit of the `\uXXXX` at $p (4 hex digits from $p + 2), or -1.
  (func $unit (param $p i32) (param $end i32) (result i32)
    (local $v i32) (local $k i32) (local $d i32)
    (if (i32.gt_u (i32.add (local.get $p) (i32.const 6)) (local.get $end)) (then (return (i32.const -1))))
    (local.set $k (i32.const 2))
    (block $done
      (loop $digits
        (local.set $d (call $hex (i32.load8_u (i32.add (local.get $p) (local.get $k)))))
        (if (i32.lt_s (local.get $d) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $v (i32.or (i32.shl (local.get $v) (i32.const 4)) (local.get $d)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $digits (i32.lt_u (local.get $k) (i32.const 6)))))
    (local.get $v))

  ;; Scans the string token opening at $i; returns its closing quote's address, or -1 when it is no
  ;; valid JSON string. Sets $saved (raw bytes minus decoded UTF-8 bytes, quotes not counted),
  ;; $newlines and $endsNewline.
  (func $string (param $i i32) (param $end i32) (result i32)
    (local $j i32) (local $c i32) (local $e i32) (local $u i32) (local $lo i32) (local $m i32)
    (local $v v128)
    (local.set $j (i32.add (local.get $i) (i32.const 1)))
    (global.set $saved (i32.const 0))
    (global.set $newlines (i32.const 0))
    (global.set $endsNewline (i32.const 0))
    (loop $next
      ;; Sixteen bytes at a time while none of them is a quote, a backslash or a control byte.
      (block $scalar
        (loop $fast
          (br_if $scalar (i32.gt_u (i32.add (local.get $j) (i32.const 16)) (local.get $end)))
          (local.set $v (v128.load (local.get $j)))
          (local.set $m (i8x16.bitmask
            (v128.or
              (v128.or
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
              (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32))))))
          (if (i32.eqz (local.get $m))
            (then
              (global.set $endsNewline (i32.const 0))
              (local.set $j (i32.add (local.get $j) (i32.const 16)))
              (br $fast)))
          (if (i32.ctz (local.get $m))
            (then
              (global.set $endsNewline (i32.const 0))
              (local.set $j (i32.add (local.get $j) (i32.ctz (local.get $m))))))))
      (if (i32.ge_u (local.get $j) (local.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $j)))
      (if (i32.eq (local.get $c) (i32.const 34)) (then (return (local.get $j))))
      (if (i32.lt_u (local.get $c) (i32.const 32)) (then (return (i32.const -1))))
      (if (i32.ne (local.get $c) (i32.const 92))
        (then
          (global.set $endsNewline (i32.const 0))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $next)))
      ;; An escape.
      (if (i32.ge_u (i32.add (local.get $j) (i32.const 1)) (local.get $end)) (then (return (i32.const -1))))
      (local.set $e (i32.load8_u (i32.add (local.get $j) (i32.const 1))))
      (if (i32.eq (local.get $e) (i32.const 110)) ;; \n
        (then
          (global.set $newlines (i32.add (global.get $newlines) (i32.const 1)))
          (global.set $endsNewline (i32.const 1))
          (global.set $saved (i32.add (global.get $saved) (i32.const 1)))
          (local.set $j (i32.add (local.get $j) (i32.const 2)))
          (br $next)))
      (if (i32.or
            (i32.or
              (i32.or (i32.eq (local.get $e) (i32.const 34)) (i32.eq (local.get $e) (i32.const 92)))
              (i32.or (i32.eq (local.get $e) (i32.const 47)) (i32.eq (local.get $e) (i32.const 98))))
            (i32.or
              (i32.or (i32.eq (local.get $e) (i32.const 102)) (i32.eq (local.get $e) (i32.const 114)))
              (i32.eq (local.get $e) (i32.const 116))))
        (then
          (global.set $endsNewline (i32.const 0))
          (global.set $saved (i32.add (global.get $saved) (i32.const 1)))
          (local.set $j (i32.add (local.get $j) (i32.const 2)))
          (br $next)))
      (if (i32.ne (local.get $e) (i32.const 117)) (then (return (i32.const -1))))
      (local.set $u (call $unit (local.get $j) (local.get $end)))
      (if (i32.lt_s (local.get $u) (i32.const 0)) (then (return (i32.const -1))))
      (global.set $endsNewline (i32.eq (local.get $u) (i32.const 10)))
      (if (i32.eq (local.get $u) (i32.const 10))
        (then (global.set $newlines (i32.add (global.get $newlines) (i32.const 1)))))
      ;; A high surrogate followed by an escaped low one: one character, 4 bytes for 12.
      (if (i32.eq (i32.and (local.get $u) (i32.const 0xfc00)) (i32.const 0xd800))
        (then
          (if (i32.eq (i32.load8_u (i32.add (local.get $j) (i32.const 6))) (i32.const 92))
            (then
              (if (i32.lt_u (i32.add (local.get $j) (i32.const 7)) (local.get $end))
                (then
                  (if (i32.eq (i32.load8_u (i32.add (local.get $j) (i32.const 7))) (i32.const 117))
                    (then
                      (local.set $lo (call $unit (i32.add (local.get $j) (i32.const 6)) (local.get $end)))
                      (if (i32.eq (i32.and (local.get $lo) (i32.const 0xfc00)) (i32.const 0xdc00))
                        (then
                          (global.set $saved (i32.add (global.get $saved) (i32.const 8)))
                          (local.set $j (i32.add (local.get $j) (i32.const 12)))
                          (br $next)))))))))))
      ;; One code unit: 1, 2 or 3 bytes (a lone surrogate is written as U+FFFD: 3) for 6.
      (global.set $saved (i32.add (global.get $saved)
        (if (result i32) (i32.lt_u (local.get $u) (i32.const 0x80))
          (then (i32.const 5))
          (else (if (result i32) (i32.lt_u (local.get $u) (i32.const 0x800))
            (then (i32.const 4))
            (else (i32.const 3)))))))
      (local.set $j (i32.add (local.get $j) (i32.const 6)))
      (br $next))
    (i32.const -1))

  ;; Whether the $n bytes at $a equal those at $b.
  (func $same (param $a i32) (param $b i32) (param $n i32) (result i32)
    (block $differ
      (loop $each
        (if (i32.eqz (local.get $n)) (then (return (i32.const 1))))
        (br_if $differ (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $each)))
    (i32.const 0))

  ;; A key's code by its raw bytes from $a, $n long: 1 message, 2 content, 3 text, 0 another.
  (func $keyCode (param $a i32) (param $n i32) (result i32)
    (if (i32.eq (local.get $n) (i32.const 7))
      (then
        (if (call $same (local.get $a) (i32.const 3072) (i32.const 7)) (then (return (i32.const 1))))
        (if (call $same (local.get $a) (i32.const 3080) (i32.const 7)) (then (return (i32.const 2))))))
    (if (i32.eq (local.get $n) (i32.const 4))
      (then (if (call $same (local.get $a) (i32.const 3088) (i32.const 4)) (then (return (i32.const 3))))))
    (i32.const 0))

  (func (export "skim") (param $len i32) (param $minLong i32) (param $maxRecords i32) (result i32)
    (local $i i32) (local $end i32) (local $c i32) (local $close i32) (local $j i32) (local $d i32)
    (local $depth i32) (local $path i32) (local $key i32) (local $n i32) (local $rec i32)
    (local.set $i (i32.const 4096))
    (local.set $end (i32.add (i32.const 4096) (local.get $len)))
    (loop $next
      (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (local.get $n))))
      (local.set $c (i32.load8_u (local.get $i)))
      (if (i32.eq (local.get $c) (i32.const 34))
        (then
          (local.set $close (call $string (local.get $i) (local.get $end)))
          (if (i32.lt_s (local.get $close) (i32.const 0)) (then (return (i32.const -1))))
          ;; A key when a colon follows (after whitespace).
          (local.set $j (i32.add (local.get $close) (i32.const 1)))
          (block $ws
            (loop $skip
              (br_if $ws (i32.ge_u (local.get $j) (local.get $end)))
              (local.set $d (i32.load8_u (local.get $j)))
              (br_if $ws (i32.eqz (i32.or
                (i32.or (i32.eq (local.get $d) (i32.const 32)) (i32.eq (local.get $d) (i32.const 9)))
                (i32.or (i32.eq (local.get $d) (i32.const 13)) (i32.eq (local.get $d) (i32.const 10))))))
              (local.set $j (i32.add (local.get $j) (i32.const 1)))
              (br $skip)))
          (if (i32.and (i32.lt_u (local.get $j) (local.get $end))
                       (i32.eq (i32.load8_u (local.get $j)) (i32.const 58)))
            (then
              (local.set $key (call $keyCode (i32.add (local.get $i) (i32.const 1))
                                             (i32.sub (i32.sub (local.get $close) (local.get $i)) (i32.const 1))))
              (local.set $i (i32.add (local.get $j) (i32.const 1)))
              (br $next)))
          ;; A value: at message.content[*].text or .content?
          (if (i32.and (i32.and (i32.eq (local.get $path) (i32.const 4)) (i32.eq (local.get $depth) (i32.const 4)))
                       (i32.ge_u (local.get $key) (i32.const 2)))
            (then
              (if (i32.ge_u (i32.add (i32.sub (local.get $close) (local.get $i)) (i32.const 1)) (local.get $minLong))
                (then
                  (if (i32.ge_u (local.get $n) (local.get $maxRecords)) (then (return (i32.const -1))))
                  (local.set $rec (i32.mul (local.get $n) (i32.const 20)))
                  (i32.store (local.get $rec) (i32.sub (local.get $i) (i32.const 4096)))
                  (i32.store offset=4 (local.get $rec) (i32.sub (i32.add (local.get $close) (i32.const 1)) (i32.const 4096)))
                  (i32.store offset=8 (local.get $rec)
                    (i32.sub (i32.sub (i32.sub (local.get $close) (local.get $i)) (i32.const 1)) (global.get $saved)))
                  (i32.store offset=12 (local.get $rec) (global.get $newlines))
                  (i32.store offset=16 (local.get $rec) (global.get $endsNewline))
                  (local.set $n (i32.add (local.get $n) (i32.const 1))))
                (else
                  ;; A short one starting with `\u0000` could be taken for a placeholder.
                  (if (i32.ge_u (i32.sub (local.get $close) (local.get $i)) (i32.const 7))
                    (then
                      (if (i32.and
                            (i32.and
                              (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 1))) (i32.const 92))
                              (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 2))) (i32.const 117)))
                            (i32.eq (call $unit (i32.add (local.get $i) (i32.const 1)) (local.get $end)) (i32.const 0)))
                        (then (return (i32.const -1))))))))))
          (local.set $i (i32.add (local.get $close) (i32.const 1)))
          (br $next)))
      (if (i32.or (i32.eq (local.get $c) (i32.const 123)) (i32.eq (local.get $c) (i32.const 91))) ;; { [
        (then
          (if (i32.eq (local.get $path) (local.get $depth))
            (then
              (if (i32.or
                    (i32.or
                      (i32.and (i32.eqz (local.get $depth)) (i32.eq (local.get $c) (i32.const 123)))
                      (i32.and (i32.and (i32.eq (local.get $depth) (i32.const 1)) (i32.eq (local.get $c) (i32.const 123)))
                               (i32.eq (local.get $key) (i32.const 1))))
                    (i32.or
                      (i32.and (i32.and (i32.eq (local.get $depth) (i32.const 2)) (i32.eq (local.get $c) (i32.const 91)))
                               (i32.eq (local.get $key) (i32.const 2)))
                      (i32.and (i32.eq (local.get $depth) (i32.const 3)) (i32.eq (local.get $c) (i32.const 123)))))
                (then (local.set $path (i32.add (local.get $path) (i32.const 1)))))))
          (local.set $key (i32.const 0))
          (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $next)))
      (if (i32.or (i32.eq (local.get $c) (i32.const 125)) (i32.eq (local.get $c) (i32.const 93))) ;; } ]
        (then
          (if (i32.eqz (local.get $depth)) (then (return (i32.const -1))))
          (if (i32.eq (local.get $path) (local.get $depth))
            (then (local.set $path (i32.sub (local.get $path) (i32.const 1)))))
          (local.set $key (i32.const 0))
          (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next))
    (i32.const -1)))
