;; The scan kernel of the vector index (src/core/vector-index.ts, through src/core/dot-kernel.ts):
;; WebAssembly SIMD, 16 int8 code bytes a step, four f32x4 accumulators. Compiled to the bytes in
;; src/core/wasm/dot-kernel-bytes.ts by `npm run build:wasm` (wabt); a test checks they match.
;;
;; dots(q, codes, stride, blocks, rows, out): for each row r < rows, the f32 at out + 4r is the dot
;; product of the f32 query at q (blocks × 16 floats) and the int8 code at codes + r × stride
;; (blocks × 16 bytes; a query padded with zeros past its dimensions ignores the bytes read there).
(module
  (memory (export "memory") 1)
  (func (export "dots") (param $q i32) (param $codes i32) (param $stride i32) (param $blocks i32) (param $rows i32) (param $out i32)
    (local $r i32) (local $p i32) (local $qp i32) (local $b i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $c v128) (local $lo v128) (local $hi v128)
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $p (i32.add (local.get $codes) (i32.mul (local.get $r) (local.get $stride))))
        (local.set $qp (local.get $q))
        (local.set $b (local.get $blocks))
        (loop $blk
          (local.set $c (v128.load (local.get $p)))
          (local.set $lo (i16x8.extend_low_i8x16_s (local.get $c)))
          (local.set $hi (i16x8.extend_high_i8x16_s (local.get $c)))
          (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $qp))
              (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $lo))))))
          (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $qp))
              (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $lo))))))
          (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $qp))
              (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $hi))))))
          (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $qp))
              (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $hi))))))
          (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $b (i32.sub (local.get $b) (i32.const 1)))
          (br_if $blk (local.get $b)))
        (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
                   (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row))))
)
