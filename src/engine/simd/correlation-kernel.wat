;; Dot products of every pair of columns of a k-major matrix, for correlationMatrix
;; (src/engine/correlation.ts). T holds n centred series as T[k*n + i] (f64, k = 0..L-1);
;; dots writes D[i*n + j] = sum over k of T[k*n + i] * T[k*n + j] for every i < j (row-major,
;; upper triangle only). Every dot product is its own running sum, one product added per k in
;; order k = 0, 1, ..., with a separate multiply and add: the SIMD lanes hold different column
;; pairs, never different k, so each sum is bit-identical to the scalar loop in correlation.ts.
;; normalize (at the end) then turns the sums into the clipped correlation matrix.
;; Blocks: rows i and i+1 against 8 columns (16 sums in 8 v128 registers), then 2 columns,
;; then single columns, within column tiles that stay in the cache (dots). Generated and checked: src/engine/simd/kernel.test.ts compiles this file
;; with wabt and compares the bytes with src/engine/simd/correlation-kernel.wasm.ts.
(module
  (memory (export "memory") 1)

  ;; sum over k of T[k*n + i] * T[k*n + j]
  (func $dot (param $T i32) (param $n i32) (param $L i32) (param $i i32) (param $j i32) (result f64)
    (local $k i32) (local $row i32) (local $s f64)
    (local.set $row (local.get $T))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $L)))
        (local.set $s (f64.add (local.get $s)
          (f64.mul
            (f64.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 3))))
            (f64.load (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 3)))))))
        (local.set $row (i32.add (local.get $row) (i32.shl (local.get $n) (i32.const 3))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $s))

  ;; rows i, i+1 against columns j .. j+7
  (func $block8 (param $T i32) (param $n i32) (param $L i32) (param $D i32) (param $i i32) (param $j i32)
    (local $k i32) (local $pa i32) (local $pb i32) (local $pc i32) (local $stride i32) (local $a v128) (local $b v128)
    (local $s00 v128)
    (local $s01 v128)
    (local $s02 v128)
    (local $s03 v128)
    (local $s10 v128)
    (local $s11 v128)
    (local $s12 v128)
    (local $s13 v128)
    (local $c0 v128)
    (local $c1 v128)
    (local $c2 v128)
    (local $c3 v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $pa (i32.add (local.get $T) (i32.shl (local.get $i) (i32.const 3))))
    (local.set $pb (i32.add (local.get $pa) (i32.const 8)))
    (local.set $pc (i32.add (local.get $T) (i32.shl (local.get $j) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $L)))
        (local.set $a (f64x2.splat (f64.load (local.get $pa))))
        (local.set $b (f64x2.splat (f64.load (local.get $pb))))
        (local.set $c0 (v128.load offset=0 align=8 (local.get $pc)))
        (local.set $c1 (v128.load offset=16 align=8 (local.get $pc)))
        (local.set $c2 (v128.load offset=32 align=8 (local.get $pc)))
        (local.set $c3 (v128.load offset=48 align=8 (local.get $pc)))
        (local.set $s00 (f64x2.add (local.get $s00) (f64x2.mul (local.get $a) (local.get $c0))))
        (local.set $s01 (f64x2.add (local.get $s01) (f64x2.mul (local.get $a) (local.get $c1))))
        (local.set $s02 (f64x2.add (local.get $s02) (f64x2.mul (local.get $a) (local.get $c2))))
        (local.set $s03 (f64x2.add (local.get $s03) (f64x2.mul (local.get $a) (local.get $c3))))
        (local.set $s10 (f64x2.add (local.get $s10) (f64x2.mul (local.get $b) (local.get $c0))))
        (local.set $s11 (f64x2.add (local.get $s11) (f64x2.mul (local.get $b) (local.get $c1))))
        (local.set $s12 (f64x2.add (local.get $s12) (f64x2.mul (local.get $b) (local.get $c2))))
        (local.set $s13 (f64x2.add (local.get $s13) (f64x2.mul (local.get $b) (local.get $c3))))
        (local.set $pa (i32.add (local.get $pa) (local.get $stride)))
        (local.set $pb (i32.add (local.get $pb) (local.get $stride)))
        (local.set $pc (i32.add (local.get $pc) (local.get $stride)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.set $pa (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $j)) (i32.const 3))))
    (local.set $pb (i32.add (local.get $pa) (local.get $stride)))
    (v128.store offset=0 align=8 (local.get $pa) (local.get $s00))
    (v128.store offset=16 align=8 (local.get $pa) (local.get $s01))
    (v128.store offset=32 align=8 (local.get $pa) (local.get $s02))
    (v128.store offset=48 align=8 (local.get $pa) (local.get $s03))
    (v128.store offset=0 align=8 (local.get $pb) (local.get $s10))
    (v128.store offset=16 align=8 (local.get $pb) (local.get $s11))
    (v128.store offset=32 align=8 (local.get $pb) (local.get $s12))
    (v128.store offset=48 align=8 (local.get $pb) (local.get $s13))
  )

  ;; rows i, i+1 against columns j .. j+1
  (func $block2 (param $T i32) (param $n i32) (param $L i32) (param $D i32) (param $i i32) (param $j i32)
    (local $k i32) (local $pa i32) (local $pb i32) (local $pc i32) (local $stride i32) (local $a v128) (local $b v128)
    (local $s00 v128)
    (local $s10 v128)
    (local $c0 v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $pa (i32.add (local.get $T) (i32.shl (local.get $i) (i32.const 3))))
    (local.set $pb (i32.add (local.get $pa) (i32.const 8)))
    (local.set $pc (i32.add (local.get $T) (i32.shl (local.get $j) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $L)))
        (local.set $a (f64x2.splat (f64.load (local.get $pa))))
        (local.set $b (f64x2.splat (f64.load (local.get $pb))))
        (local.set $c0 (v128.load offset=0 align=8 (local.get $pc)))
        (local.set $s00 (f64x2.add (local.get $s00) (f64x2.mul (local.get $a) (local.get $c0))))
        (local.set $s10 (f64x2.add (local.get $s10) (f64x2.mul (local.get $b) (local.get $c0))))
        (local.set $pa (i32.add (local.get $pa) (local.get $stride)))
        (local.set $pb (i32.add (local.get $pb) (local.get $stride)))
        (local.set $pc (i32.add (local.get $pc) (local.get $stride)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.set $pa (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $j)) (i32.const 3))))
    (local.set $pb (i32.add (local.get $pa) (local.get $stride)))
    (v128.store offset=0 align=8 (local.get $pa) (local.get $s00))
    (v128.store offset=0 align=8 (local.get $pb) (local.get $s10))
  )

  ;; the exported entry: every pair i < j, a tile of `tile` columns at a time: each tile's
  ;; columns (tile x L values) stay in the cache while every row pair above them passes, instead
  ;; of every row pair streaming the whole matrix (n = 2,000, L = 252: 124 ms untiled, measured
  ;; when the tiling was written). Every sum is still its own, over k in order: the tiling only reorders
  ;; which pairs are computed when.
  (func (export "dots") (param $T i32) (param $n i32) (param $L i32) (param $D i32) (param $tile i32)
    (local $i i32) (local $j i32) (local $j0 i32) (local $j1 i32)
    (block $tiles_done
      (loop $tiles
        (br_if $tiles_done (i32.ge_u (local.get $j0) (local.get $n)))
        (local.set $j1 (select (local.get $n) (i32.add (local.get $j0) (local.get $tile))
          (i32.gt_u (i32.add (local.get $j0) (local.get $tile)) (local.get $n))))
        (local.set $i (i32.const 0))
        (block $rows_done
          (loop $rows
            (br_if $rows_done (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $j1)))
            ;; the pair (i, i+1), in the tile that holds column i+1
            (if (i32.ge_u (i32.add (local.get $i) (i32.const 1)) (local.get $j0))
              (then
                (f64.store
                  (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (i32.add (local.get $i) (i32.const 1))) (i32.const 3)))
                  (call $dot (local.get $T) (local.get $n) (local.get $L) (local.get $i) (i32.add (local.get $i) (i32.const 1))))))
            (local.set $j (select (local.get $j0) (i32.add (local.get $i) (i32.const 2))
              (i32.gt_u (local.get $j0) (i32.add (local.get $i) (i32.const 2)))))
            (block $b8_done
              (loop $b8
                (br_if $b8_done (i32.gt_u (i32.add (local.get $j) (i32.const 8)) (local.get $j1)))
                (call $block8 (local.get $T) (local.get $n) (local.get $L) (local.get $D) (local.get $i) (local.get $j))
                (local.set $j (i32.add (local.get $j) (i32.const 8)))
                (br $b8)))
            (block $b2_done
              (loop $b2
                (br_if $b2_done (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $j1)))
                (call $block2 (local.get $T) (local.get $n) (local.get $L) (local.get $D) (local.get $i) (local.get $j))
                (local.set $j (i32.add (local.get $j) (i32.const 2)))
                (br $b2)))
            (if (i32.lt_u (local.get $j) (local.get $j1))
              (then
                (f64.store
                  (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $j)) (i32.const 3)))
                  (call $dot (local.get $T) (local.get $n) (local.get $L) (local.get $i) (local.get $j)))
                (f64.store
                  (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $n)) (local.get $j)) (i32.const 3)))
                  (call $dot (local.get $T) (local.get $n) (local.get $L) (i32.add (local.get $i) (i32.const 1)) (local.get $j)))))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $rows)))
        (local.set $j0 (i32.add (local.get $j0) (local.get $tile)))
        (br $tiles)))
  )

  ;; Turns D into the correlation matrix in place: D[i*n + j] = D[j*n + i] =
  ;; clip(D[i*n + j] / sqrt(S[i] * S[j])) for i < j, D[i*n + i] = 1, with S the sums of squares.
  ;; clip is max(min(x, 1), -1) in IEEE min/max, which equals the scalar x > 1 ? 1 : x < -1 ? -1 : x
  ;; for every x (-0 and NaN included); mul, sqrt and div are IEEE in both.
  (func (export "normalize") (param $D i32) (param $S i32) (param $n i32)
    (local $i i32) (local $j i32) (local $p i32) (local $si f64) (local $r v128) (local $x f64)
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $si (f64.load (i32.add (local.get $S) (i32.shl (local.get $i) (i32.const 3)))))
        (f64.store (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $i)) (i32.const 3))) (f64.const 1))
        (local.set $j (i32.add (local.get $i) (i32.const 1)))
        (block $pairs_done
          (loop $pairs
            (br_if $pairs_done (i32.gt_u (i32.add (local.get $j) (i32.const 2)) (local.get $n)))
            (local.set $p (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $j)) (i32.const 3))))
            (local.set $r
              (f64x2.max
                (f64x2.min
                  (f64x2.div
                    (v128.load align=8 (local.get $p))
                    (f64x2.sqrt (f64x2.mul (f64x2.splat (local.get $si))
                      (v128.load align=8 (i32.add (local.get $S) (i32.shl (local.get $j) (i32.const 3)))))))
                  (f64x2.splat (f64.const 1)))
                (f64x2.splat (f64.const -1))))
            (v128.store align=8 (local.get $p) (local.get $r))
            (f64.store (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $n)) (local.get $i)) (i32.const 3)))
              (f64x2.extract_lane 0 (local.get $r)))
            (f64.store (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (i32.add (local.get $j) (i32.const 1)) (local.get $n)) (local.get $i)) (i32.const 3)))
              (f64x2.extract_lane 1 (local.get $r)))
            (local.set $j (i32.add (local.get $j) (i32.const 2)))
            (br $pairs)))
        (if (i32.lt_u (local.get $j) (local.get $n))
          (then
            (local.set $p (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $n)) (local.get $j)) (i32.const 3))))
            (local.set $x
              (f64.max
                (f64.min
                  (f64.div (f64.load (local.get $p))
                    (f64.sqrt (f64.mul (local.get $si) (f64.load (i32.add (local.get $S) (i32.shl (local.get $j) (i32.const 3)))))))
                  (f64.const 1))
                (f64.const -1)))
            (f64.store (local.get $p) (local.get $x))
            (f64.store (i32.add (local.get $D) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $n)) (local.get $i)) (i32.const 3))) (local.get $x))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))
  )
)
