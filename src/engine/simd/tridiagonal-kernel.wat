;; Householder tridiagonalisation of a symmetric matrix, for the random-matrix filters
;; (src/engine/top-eigen.ts, which holds the same algorithm in JavaScript and documents it).
;; A is row-major n×n at $A; only its lower triangle is read and kept up to date. The reflection
;; of step k goes to row k of $V (V[k*n + j], j > k; V may be A itself, whose upper triangle is
;; never read), its β to $beta[k]; the tridiagonal's diagonal
;; to $d and subdiagonal to $e; $p is n values of scratch. The two O(n²) loops of each step — the
;; product p = A₂₂v and the rank-2 update A₂₂ ← A₂₂ − vwᵀ − wvᵀ — are most of the time at n = 50:
;; they take two rows at a time (each column's v, w and p loaded once for both) and four columns a
;; turn in f64x2 through moving pointers, with independent partial sums, so that the loads and the
;; loop's own arithmetic, not the multiplies, no longer set the pace. Every sum is a
;; separate multiply and add (no fused ones), so results are the same on every machine. Generated and checked: src/engine/simd/kernel.test.ts.
(module
  (memory (export "memory") 1)

  (func (export "tridiagonalise") (param $A i32) (param $V i32) (param $d i32) (param $e i32)
    (param $beta i32) (param $p i32) (param $n i32)
    (local $k i32) (local $i i32) (local $j i32) (local $stride i32)
    (local $row i32) (local $ri i32) (local $end i32)
    (local $x f64) (local $x0 f64) (local $sigma f64) (local $alpha f64) (local $b f64)
    (local $vi f64) (local $wi f64) (local $s f64) (local $pv f64) (local $K f64) (local $a f64)
    (local $sv v128) (local $av v128) (local $viv v128) (local $wiv v128) (local $addr i32)
    (local $ri1 i32) (local $vi1 f64) (local $wi1 f64) (local $s1 f64) (local $c f64)
    (local $sv1 v128) (local $av1 v128) (local $viv1 v128) (local $wiv1 v128) (local $vv v128) (local $wv v128)
    (local $pa i32) (local $pb i32) (local $pw i32) (local $pq i32) (local $lim i32) (local $sw v128) (local $sw1 v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $k (i32.const 0))
    (block $steps_done
      (loop $step
        (br_if $steps_done (i32.ge_s (local.get $k) (i32.sub (local.get $n) (i32.const 2))))
        ;; row = &V[k*n], end = n
        (local.set $row (i32.add (local.get $V) (i32.mul (local.get $k) (local.get $stride))))
        ;; d[k] = A[k*n + k]
        (f64.store (i32.add (local.get $d) (i32.shl (local.get $k) (i32.const 3)))
          (f64.load (i32.add (local.get $A) (i32.add (i32.mul (local.get $k) (local.get $stride)) (i32.shl (local.get $k) (i32.const 3))))))
        ;; v = column k below the diagonal; sigma = |v|²
        (local.set $sigma (f64.const 0))
        (local.set $j (i32.add (local.get $k) (i32.const 1)))
        (block $col_done
          (loop $col
            (br_if $col_done (i32.ge_s (local.get $j) (local.get $n)))
            (local.set $x (f64.load (i32.add (local.get $A)
              (i32.add (i32.mul (local.get $j) (local.get $stride)) (i32.shl (local.get $k) (i32.const 3))))))
            (f64.store (i32.add (local.get $row) (i32.shl (local.get $j) (i32.const 3))) (local.get $x))
            (local.set $sigma (f64.add (local.get $sigma) (f64.mul (local.get $x) (local.get $x))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $col)))
        (local.set $addr (i32.add (local.get $row) (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 3))))
        (local.set $x0 (f64.load (local.get $addr)))
        (if (f64.eq (local.get $sigma) (f64.const 0))
          (then
            (f64.store (i32.add (local.get $e) (i32.shl (local.get $k) (i32.const 3))) (f64.const 0))
            (f64.store (i32.add (local.get $beta) (i32.shl (local.get $k) (i32.const 3))) (f64.const 0)))
          (else
            (local.set $alpha (f64.sqrt (local.get $sigma)))
            (if (f64.gt (local.get $x0) (f64.const 0)) (then (local.set $alpha (f64.neg (local.get $alpha)))))
            (f64.store (i32.add (local.get $e) (i32.shl (local.get $k) (i32.const 3))) (local.get $alpha))
            (f64.store (local.get $addr) (f64.sub (local.get $x0) (local.get $alpha)))
            (local.set $b (f64.div (f64.const 1) (f64.sub (local.get $sigma) (f64.mul (local.get $alpha) (local.get $x0)))))
            (f64.store (i32.add (local.get $beta) (i32.shl (local.get $k) (i32.const 3))) (local.get $b))
            ;; p[k+1 ..] = 0, two at a time
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            (block $z_done
              (loop $z
                (br_if $z_done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (v128.store align=8 (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3))) (f64x2.splat (f64.const 0)))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $z)))
            (if (i32.lt_s (local.get $i) (local.get $n))
              (then (f64.store (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3))) (f64.const 0))))
            ;; p = A₂₂v from the lower triangle: row i gives p[i] its dot with v and each p[j], j < i, A[i][j]·v[i]
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            ;; Two rows at a time: each column pair's v and p are loaded once for both rows, and the
            ;; two dots are independent chains; a last odd row goes through the one-row loop below.
            (block $mv2_done
              (loop $mv2
                (br_if $mv2_done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (local.set $ri (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $stride))))
                (local.set $ri1 (i32.add (local.get $ri) (local.get $stride)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $vi (f64.load (i32.add (local.get $row) (local.get $addr))))
                (local.set $vi1 (f64.load offset=8 (i32.add (local.get $row) (local.get $addr))))
                (local.set $viv (f64x2.splat (local.get $vi)))
                (local.set $viv1 (f64x2.splat (local.get $vi1)))
                (local.set $sv (f64x2.splat (f64.const 0)))
                (local.set $sv1 (f64x2.splat (f64.const 0)))
                ;; Four columns a turn through moving pointers, two accumulators a row so no sum waits on
                ;; the one before; then a last pair, then (below) an odd column.
                (local.set $addr (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 3)))
                (local.set $pa (i32.add (local.get $ri) (local.get $addr)))
                (local.set $pb (i32.add (local.get $ri1) (local.get $addr)))
                (local.set $pw (i32.add (local.get $row) (local.get $addr)))
                (local.set $pq (i32.add (local.get $p) (local.get $addr)))
                (local.set $lim (i32.add (local.get $row) (i32.shl (i32.sub (local.get $i) (i32.const 3)) (i32.const 3))))
                (local.set $sw (f64x2.splat (f64.const 0)))
                (local.set $sw1 (f64x2.splat (f64.const 0)))
                (block $pp_done
                  (loop $pp
                    (br_if $pp_done (i32.ge_s (local.get $pw) (local.get $lim)))
                    (local.set $av (v128.load align=8 (local.get $pa)))
                    (local.set $av1 (v128.load align=8 (local.get $pb)))
                    (local.set $vv (v128.load align=8 (local.get $pw)))
                    (local.set $sv (f64x2.add (local.get $sv) (f64x2.mul (local.get $av) (local.get $vv))))
                    (local.set $sv1 (f64x2.add (local.get $sv1) (f64x2.mul (local.get $av1) (local.get $vv))))
                    (v128.store align=8 (local.get $pq)
                      (f64x2.add (v128.load align=8 (local.get $pq))
                        (f64x2.add (f64x2.mul (local.get $av) (local.get $viv)) (f64x2.mul (local.get $av1) (local.get $viv1)))))
                    (local.set $av (v128.load offset=16 align=8 (local.get $pa)))
                    (local.set $av1 (v128.load offset=16 align=8 (local.get $pb)))
                    (local.set $vv (v128.load offset=16 align=8 (local.get $pw)))
                    (local.set $sw (f64x2.add (local.get $sw) (f64x2.mul (local.get $av) (local.get $vv))))
                    (local.set $sw1 (f64x2.add (local.get $sw1) (f64x2.mul (local.get $av1) (local.get $vv))))
                    (v128.store offset=16 align=8 (local.get $pq)
                      (f64x2.add (v128.load offset=16 align=8 (local.get $pq))
                        (f64x2.add (f64x2.mul (local.get $av) (local.get $viv)) (f64x2.mul (local.get $av1) (local.get $viv1)))))
                    (local.set $pa (i32.add (local.get $pa) (i32.const 32)))
                    (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
                    (local.set $pw (i32.add (local.get $pw) (i32.const 32)))
                    (local.set $pq (i32.add (local.get $pq) (i32.const 32)))
                    (br $pp)))
                (if (i32.lt_s (local.get $pw) (i32.add (local.get $lim) (i32.const 16)))
                  (then
                    (local.set $av (v128.load align=8 (local.get $pa)))
                    (local.set $av1 (v128.load align=8 (local.get $pb)))
                    (local.set $vv (v128.load align=8 (local.get $pw)))
                    (local.set $sv (f64x2.add (local.get $sv) (f64x2.mul (local.get $av) (local.get $vv))))
                    (local.set $sv1 (f64x2.add (local.get $sv1) (f64x2.mul (local.get $av1) (local.get $vv))))
                    (v128.store align=8 (local.get $pq)
                      (f64x2.add (v128.load align=8 (local.get $pq))
                        (f64x2.add (f64x2.mul (local.get $av) (local.get $viv)) (f64x2.mul (local.get $av1) (local.get $viv1)))))
                    (local.set $pw (i32.add (local.get $pw) (i32.const 16)))))
                (local.set $sv (f64x2.add (local.get $sv) (local.get $sw)))
                (local.set $sv1 (f64x2.add (local.get $sv1) (local.get $sw1)))
                (local.set $j (i32.shr_s (i32.sub (local.get $pw) (local.get $row)) (i32.const 3)))
                (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $sv)) (f64x2.extract_lane 1 (local.get $sv))))
                (local.set $s1 (f64.add (f64x2.extract_lane 0 (local.get $sv1)) (f64x2.extract_lane 1 (local.get $sv1))))
                ;; an odd column j = i − 1 left
                (if (i32.lt_s (local.get $j) (local.get $i))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (local.set $a (f64.load (i32.add (local.get $ri) (local.get $addr))))
                    (local.set $c (f64.load (i32.add (local.get $ri1) (local.get $addr))))
                    (local.set $x (f64.load (i32.add (local.get $row) (local.get $addr))))
                    (local.set $s (f64.add (local.get $s) (f64.mul (local.get $a) (local.get $x))))
                    (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $c) (local.get $x))))
                    (f64.store (i32.add (local.get $p) (local.get $addr))
                      (f64.add (f64.load (i32.add (local.get $p) (local.get $addr)))
                        (f64.add (f64.mul (local.get $a) (local.get $vi)) (f64.mul (local.get $c) (local.get $vi1)))))))
                ;; column i: A[i+1][i] joins row i+1's dot and, by symmetry, p[i]; then both diagonals
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $c (f64.load (i32.add (local.get $ri1) (local.get $addr))))
                (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $c) (local.get $vi))))
                (f64.store (i32.add (local.get $p) (local.get $addr))
                  (f64.add (f64.load (i32.add (local.get $p) (local.get $addr)))
                    (f64.add (f64.add (f64.mul (local.get $c) (local.get $vi1))
                      (f64.mul (f64.load (i32.add (local.get $ri) (local.get $addr))) (local.get $vi))) (local.get $s))))
                (f64.store offset=8 (i32.add (local.get $p) (local.get $addr))
                  (f64.add (f64.load offset=8 (i32.add (local.get $p) (local.get $addr)))
                    (f64.add (f64.mul (f64.load offset=8 (i32.add (local.get $ri1) (local.get $addr))) (local.get $vi1)) (local.get $s1))))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $mv2)))
            (block $mv_done
              (loop $mv
                (br_if $mv_done (i32.ge_s (local.get $i) (local.get $n)))
                (local.set $ri (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $stride))))
                (local.set $vi (f64.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 3)))))
                (local.set $viv (f64x2.splat (local.get $vi)))
                (local.set $sv (f64x2.splat (f64.const 0)))
                (local.set $j (i32.add (local.get $k) (i32.const 1)))
                (block $pair_done
                  (loop $pair
                    (br_if $pair_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $i)))
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (local.set $av (v128.load align=8 (i32.add (local.get $ri) (local.get $addr))))
                    (local.set $sv (f64x2.add (local.get $sv)
                      (f64x2.mul (local.get $av) (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))))
                    (v128.store align=8 (i32.add (local.get $p) (local.get $addr))
                      (f64x2.add (v128.load align=8 (i32.add (local.get $p) (local.get $addr)))
                        (f64x2.mul (local.get $av) (local.get $viv))))
                    (local.set $j (i32.add (local.get $j) (i32.const 2)))
                    (br $pair)))
                (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $sv)) (f64x2.extract_lane 1 (local.get $sv))))
                (if (i32.lt_s (local.get $j) (local.get $i))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (local.set $a (f64.load (i32.add (local.get $ri) (local.get $addr))))
                    (local.set $s (f64.add (local.get $s) (f64.mul (local.get $a) (f64.load (i32.add (local.get $row) (local.get $addr))))))
                    (f64.store (i32.add (local.get $p) (local.get $addr))
                      (f64.add (f64.load (i32.add (local.get $p) (local.get $addr))) (f64.mul (local.get $a) (local.get $vi))))))
                ;; p[i] += A[i][i]·v[i] + s
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (f64.store (i32.add (local.get $p) (local.get $addr))
                  (f64.add (f64.load (i32.add (local.get $p) (local.get $addr)))
                    (f64.add (f64.mul (f64.load (i32.add (local.get $ri) (local.get $addr))) (local.get $vi)) (local.get $s))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $mv)))
            ;; p ← βp, K = (β/2)·pᵀv, w = p − Kv (in p)
            (local.set $pv (f64.const 0))
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            (local.set $wiv (f64x2.splat (local.get $b)))
            (local.set $sv (f64x2.splat (f64.const 0)))
            (block $sc_done
              (loop $sc
                (br_if $sc_done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $av (f64x2.mul (v128.load align=8 (i32.add (local.get $p) (local.get $addr))) (local.get $wiv)))
                (v128.store align=8 (i32.add (local.get $p) (local.get $addr)) (local.get $av))
                (local.set $sv (f64x2.add (local.get $sv) (f64x2.mul (local.get $av) (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $sc)))
            (local.set $pv (f64.add (f64x2.extract_lane 0 (local.get $sv)) (f64x2.extract_lane 1 (local.get $sv))))
            (if (i32.lt_s (local.get $i) (local.get $n))
              (then
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $a (f64.mul (f64.load (i32.add (local.get $p) (local.get $addr))) (local.get $b)))
                (f64.store (i32.add (local.get $p) (local.get $addr)) (local.get $a))
                (local.set $pv (f64.add (local.get $pv) (f64.mul (local.get $a) (f64.load (i32.add (local.get $row) (local.get $addr))))))))
            (local.set $K (f64.mul (f64.mul (f64.const 0.5) (local.get $b)) (local.get $pv)))
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            (local.set $wiv (f64x2.splat (local.get $K)))
            (block $w_done
              (loop $w
                (br_if $w_done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (v128.store align=8 (i32.add (local.get $p) (local.get $addr))
                  (f64x2.sub (v128.load align=8 (i32.add (local.get $p) (local.get $addr)))
                    (f64x2.mul (local.get $wiv) (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $w)))
            (if (i32.lt_s (local.get $i) (local.get $n))
              (then
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (f64.store (i32.add (local.get $p) (local.get $addr))
                  (f64.sub (f64.load (i32.add (local.get $p) (local.get $addr)))
                    (f64.mul (local.get $K) (f64.load (i32.add (local.get $row) (local.get $addr))))))))
            ;; A₂₂ ← A₂₂ − v wᵀ − w vᵀ on the lower triangle (j ≤ i)
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            ;; Two rows at a time, as in the product: w and v are loaded once per column pair for both rows.
            (block $up2_done
              (loop $up2
                (br_if $up2_done (i32.ge_s (i32.add (local.get $i) (i32.const 1)) (local.get $n)))
                (local.set $ri (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $stride))))
                (local.set $ri1 (i32.add (local.get $ri) (local.get $stride)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $vi (f64.load (i32.add (local.get $row) (local.get $addr))))
                (local.set $wi (f64.load (i32.add (local.get $p) (local.get $addr))))
                (local.set $vi1 (f64.load offset=8 (i32.add (local.get $row) (local.get $addr))))
                (local.set $wi1 (f64.load offset=8 (i32.add (local.get $p) (local.get $addr))))
                (local.set $viv (f64x2.splat (local.get $vi)))
                (local.set $wiv (f64x2.splat (local.get $wi)))
                (local.set $viv1 (f64x2.splat (local.get $vi1)))
                (local.set $wiv1 (f64x2.splat (local.get $wi1)))
                ;; Four columns a turn through moving pointers, then a last pair.
                (local.set $addr (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 3)))
                (local.set $pa (i32.add (local.get $ri) (local.get $addr)))
                (local.set $pb (i32.add (local.get $ri1) (local.get $addr)))
                (local.set $pw (i32.add (local.get $row) (local.get $addr)))
                (local.set $pq (i32.add (local.get $p) (local.get $addr)))
                (local.set $lim (i32.add (local.get $row) (i32.shl (i32.sub (local.get $i) (i32.const 2)) (i32.const 3))))
                (block $uu_done
                  (loop $uu
                    (br_if $uu_done (i32.ge_s (local.get $pw) (local.get $lim)))
                    (local.set $wv (v128.load align=8 (local.get $pq)))
                    (local.set $vv (v128.load align=8 (local.get $pw)))
                    (v128.store align=8 (local.get $pa)
                      (f64x2.sub (v128.load align=8 (local.get $pa))
                        (f64x2.add (f64x2.mul (local.get $viv) (local.get $wv)) (f64x2.mul (local.get $wiv) (local.get $vv)))))
                    (v128.store align=8 (local.get $pb)
                      (f64x2.sub (v128.load align=8 (local.get $pb))
                        (f64x2.add (f64x2.mul (local.get $viv1) (local.get $wv)) (f64x2.mul (local.get $wiv1) (local.get $vv)))))
                    (local.set $wv (v128.load offset=16 align=8 (local.get $pq)))
                    (local.set $vv (v128.load offset=16 align=8 (local.get $pw)))
                    (v128.store offset=16 align=8 (local.get $pa)
                      (f64x2.sub (v128.load offset=16 align=8 (local.get $pa))
                        (f64x2.add (f64x2.mul (local.get $viv) (local.get $wv)) (f64x2.mul (local.get $wiv) (local.get $vv)))))
                    (v128.store offset=16 align=8 (local.get $pb)
                      (f64x2.sub (v128.load offset=16 align=8 (local.get $pb))
                        (f64x2.add (f64x2.mul (local.get $viv1) (local.get $wv)) (f64x2.mul (local.get $wiv1) (local.get $vv)))))
                    (local.set $pa (i32.add (local.get $pa) (i32.const 32)))
                    (local.set $pb (i32.add (local.get $pb) (i32.const 32)))
                    (local.set $pw (i32.add (local.get $pw) (i32.const 32)))
                    (local.set $pq (i32.add (local.get $pq) (i32.const 32)))
                    (br $uu)))
                (if (i32.lt_s (local.get $pw) (i32.add (local.get $lim) (i32.const 16)))
                  (then
                    (local.set $wv (v128.load align=8 (local.get $pq)))
                    (local.set $vv (v128.load align=8 (local.get $pw)))
                    (v128.store align=8 (local.get $pa)
                      (f64x2.sub (v128.load align=8 (local.get $pa))
                        (f64x2.add (f64x2.mul (local.get $viv) (local.get $wv)) (f64x2.mul (local.get $wiv) (local.get $vv)))))
                    (v128.store align=8 (local.get $pb)
                      (f64x2.sub (v128.load align=8 (local.get $pb))
                        (f64x2.add (f64x2.mul (local.get $viv1) (local.get $wv)) (f64x2.mul (local.get $wiv1) (local.get $vv)))))
                    (local.set $pw (i32.add (local.get $pw) (i32.const 16)))))
                (local.set $j (i32.shr_s (i32.sub (local.get $pw) (local.get $row)) (i32.const 3)))
                ;; row i's last column (i) when its count is odd; row i+1's last one or two (to i + 1)
                (if (i32.eq (local.get $j) (local.get $i))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (f64.store (i32.add (local.get $ri) (local.get $addr))
                      (f64.sub (f64.load (i32.add (local.get $ri) (local.get $addr)))
                        (f64.add
                          (f64.mul (local.get $vi) (f64.load (i32.add (local.get $p) (local.get $addr))))
                          (f64.mul (local.get $wi) (f64.load (i32.add (local.get $row) (local.get $addr)))))))))
                (block $ut_done
                  (loop $ut
                    (br_if $ut_done (i32.gt_s (local.get $j) (i32.add (local.get $i) (i32.const 1))))
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (f64.store (i32.add (local.get $ri1) (local.get $addr))
                      (f64.sub (f64.load (i32.add (local.get $ri1) (local.get $addr)))
                        (f64.add
                          (f64.mul (local.get $vi1) (f64.load (i32.add (local.get $p) (local.get $addr))))
                          (f64.mul (local.get $wi1) (f64.load (i32.add (local.get $row) (local.get $addr)))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 1)))
                    (br $ut)))
                (local.set $i (i32.add (local.get $i) (i32.const 2)))
                (br $up2)))
            (block $up_done
              (loop $up
                (br_if $up_done (i32.ge_s (local.get $i) (local.get $n)))
                (local.set $ri (i32.add (local.get $A) (i32.mul (local.get $i) (local.get $stride))))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $vi (f64.load (i32.add (local.get $row) (local.get $addr))))
                (local.set $wi (f64.load (i32.add (local.get $p) (local.get $addr))))
                (local.set $viv (f64x2.splat (local.get $vi)))
                (local.set $wiv (f64x2.splat (local.get $wi)))
                (local.set $j (i32.add (local.get $k) (i32.const 1)))
                (local.set $end (i32.add (local.get $i) (i32.const 1)))
                (block $u2_done
                  (loop $u2
                    (br_if $u2_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $end)))
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (v128.store align=8 (i32.add (local.get $ri) (local.get $addr))
                      (f64x2.sub (v128.load align=8 (i32.add (local.get $ri) (local.get $addr)))
                        (f64x2.add
                          (f64x2.mul (local.get $viv) (v128.load align=8 (i32.add (local.get $p) (local.get $addr))))
                          (f64x2.mul (local.get $wiv) (v128.load align=8 (i32.add (local.get $row) (local.get $addr)))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 2)))
                    (br $u2)))
                (if (i32.lt_s (local.get $j) (local.get $end))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (f64.store (i32.add (local.get $ri) (local.get $addr))
                      (f64.sub (f64.load (i32.add (local.get $ri) (local.get $addr)))
                        (f64.add
                          (f64.mul (local.get $vi) (f64.load (i32.add (local.get $p) (local.get $addr))))
                          (f64.mul (local.get $wi) (f64.load (i32.add (local.get $row) (local.get $addr)))))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $up)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $step)))
    ;; the last 2×2 block: d[n−2], e[n−2] = A[n−1][n−2], d[n−1]
    (if (i32.ge_s (local.get $n) (i32.const 2))
      (then
        (local.set $k (i32.sub (local.get $n) (i32.const 2)))
        (f64.store (i32.add (local.get $d) (i32.shl (local.get $k) (i32.const 3)))
          (f64.load (i32.add (local.get $A) (i32.add (i32.mul (local.get $k) (local.get $stride)) (i32.shl (local.get $k) (i32.const 3))))))
        (f64.store (i32.add (local.get $e) (i32.shl (local.get $k) (i32.const 3)))
          (f64.load (i32.add (local.get $A) (i32.add (i32.mul (i32.add (local.get $k) (i32.const 1)) (local.get $stride)) (i32.shl (local.get $k) (i32.const 3))))))))
    (if (i32.ge_s (local.get $n) (i32.const 1))
      (then
        (local.set $k (i32.sub (local.get $n) (i32.const 1)))
        (f64.store (i32.add (local.get $d) (i32.shl (local.get $k) (i32.const 3)))
          (f64.load (i32.add (local.get $A) (i32.add (i32.mul (local.get $k) (local.get $stride)) (i32.shl (local.get $k) (i32.const 3)))))))))

  ;; z_q ← H₀H₁…H_{n−3} z_q for the k vectors at $Z (vector q at Z + 8qn): an eigenvector of the
  ;; tridiagonal becomes one of A (top-eigen.ts applies the same reflections in JavaScript, one
  ;; vector at a time). Each reflection's dot and update run two entries per f64x2.
  (func (export "reflect") (param $V i32) (param $beta i32) (param $Z i32) (param $n i32) (param $k i32)
    (local $r i32) (local $q i32) (local $j i32) (local $stride i32) (local $row i32) (local $zq i32)
    (local $addr i32) (local $b f64) (local $s f64) (local $sv v128) (local $ss v128)
    (local $zq1 i32) (local $s1 f64) (local $sv1 v128) (local $ss1 v128) (local $vv v128) (local $x f64)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $r (i32.sub (local.get $n) (i32.const 3)))
    (block $all_done
      (loop $each
        (br_if $all_done (i32.lt_s (local.get $r) (i32.const 0)))
        (local.set $b (f64.load (i32.add (local.get $beta) (i32.shl (local.get $r) (i32.const 3)))))
        (if (f64.ne (local.get $b) (f64.const 0))
          (then
            (local.set $row (i32.add (local.get $V) (i32.mul (local.get $r) (local.get $stride))))
            (local.set $q (i32.const 0))
            (block $vectors_done
              (loop $vector
                (br_if $vectors_done (i32.ge_s (local.get $q) (local.get $k)))
                (local.set $zq (i32.add (local.get $Z) (i32.mul (local.get $q) (local.get $stride))))
                ;; Two vectors a pass where two are left: each v loaded once for both, two independent
                ;; sums; each vector's own operations are those of the one-vector pass below.
                (if (i32.lt_s (i32.add (local.get $q) (i32.const 1)) (local.get $k))
                  (then
                    (local.set $zq1 (i32.add (local.get $zq) (local.get $stride)))
                    (local.set $sv (f64x2.splat (f64.const 0)))
                    (local.set $sv1 (f64x2.splat (f64.const 0)))
                    (local.set $j (i32.add (local.get $r) (i32.const 1)))
                    (block $dot2_done
                      (loop $dot2
                        (br_if $dot2_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $n)))
                        (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                        (local.set $vv (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))
                        (local.set $sv (f64x2.add (local.get $sv) (f64x2.mul (local.get $vv) (v128.load align=8 (i32.add (local.get $zq) (local.get $addr))))))
                        (local.set $sv1 (f64x2.add (local.get $sv1) (f64x2.mul (local.get $vv) (v128.load align=8 (i32.add (local.get $zq1) (local.get $addr))))))
                        (local.set $j (i32.add (local.get $j) (i32.const 2)))
                        (br $dot2)))
                    (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $sv)) (f64x2.extract_lane 1 (local.get $sv))))
                    (local.set $s1 (f64.add (f64x2.extract_lane 0 (local.get $sv1)) (f64x2.extract_lane 1 (local.get $sv1))))
                    (if (i32.lt_s (local.get $j) (local.get $n))
                      (then
                        (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                        (local.set $x (f64.load (i32.add (local.get $row) (local.get $addr))))
                        (local.set $s (f64.add (local.get $s) (f64.mul (local.get $x) (f64.load (i32.add (local.get $zq) (local.get $addr))))))
                        (local.set $s1 (f64.add (local.get $s1) (f64.mul (local.get $x) (f64.load (i32.add (local.get $zq1) (local.get $addr))))))))
                    (local.set $ss (f64x2.splat (f64.mul (local.get $s) (local.get $b))))
                    (local.set $ss1 (f64x2.splat (f64.mul (local.get $s1) (local.get $b))))
                    (local.set $j (i32.add (local.get $r) (i32.const 1)))
                    (block $axpy2_done
                      (loop $axpy2
                        (br_if $axpy2_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $n)))
                        (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                        (local.set $vv (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))
                        (v128.store align=8 (i32.add (local.get $zq) (local.get $addr))
                          (f64x2.sub (v128.load align=8 (i32.add (local.get $zq) (local.get $addr))) (f64x2.mul (local.get $ss) (local.get $vv))))
                        (v128.store align=8 (i32.add (local.get $zq1) (local.get $addr))
                          (f64x2.sub (v128.load align=8 (i32.add (local.get $zq1) (local.get $addr))) (f64x2.mul (local.get $ss1) (local.get $vv))))
                        (local.set $j (i32.add (local.get $j) (i32.const 2)))
                        (br $axpy2)))
                    (if (i32.lt_s (local.get $j) (local.get $n))
                      (then
                        (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                        (local.set $x (f64.load (i32.add (local.get $row) (local.get $addr))))
                        (f64.store (i32.add (local.get $zq) (local.get $addr))
                          (f64.sub (f64.load (i32.add (local.get $zq) (local.get $addr))) (f64.mul (f64x2.extract_lane 0 (local.get $ss)) (local.get $x))))
                        (f64.store (i32.add (local.get $zq1) (local.get $addr))
                          (f64.sub (f64.load (i32.add (local.get $zq1) (local.get $addr))) (f64.mul (f64x2.extract_lane 0 (local.get $ss1)) (local.get $x))))))
                    (local.set $q (i32.add (local.get $q) (i32.const 2)))
                    (br $vector)))
                ;; s = β·(v·z) over r+1 … n−1
                (local.set $sv (f64x2.splat (f64.const 0)))
                (local.set $j (i32.add (local.get $r) (i32.const 1)))
                (block $dot_done
                  (loop $dot
                    (br_if $dot_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $n)))
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (local.set $sv (f64x2.add (local.get $sv)
                      (f64x2.mul (v128.load align=8 (i32.add (local.get $row) (local.get $addr)))
                        (v128.load align=8 (i32.add (local.get $zq) (local.get $addr))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 2)))
                    (br $dot)))
                (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $sv)) (f64x2.extract_lane 1 (local.get $sv))))
                (if (i32.lt_s (local.get $j) (local.get $n))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (local.set $s (f64.add (local.get $s)
                      (f64.mul (f64.load (i32.add (local.get $row) (local.get $addr))) (f64.load (i32.add (local.get $zq) (local.get $addr))))))))
                (local.set $s (f64.mul (local.get $s) (local.get $b)))
                ;; z ← z − s·v
                (local.set $ss (f64x2.splat (local.get $s)))
                (local.set $j (i32.add (local.get $r) (i32.const 1)))
                (block $axpy_done
                  (loop $axpy
                    (br_if $axpy_done (i32.ge_s (i32.add (local.get $j) (i32.const 1)) (local.get $n)))
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (v128.store align=8 (i32.add (local.get $zq) (local.get $addr))
                      (f64x2.sub (v128.load align=8 (i32.add (local.get $zq) (local.get $addr)))
                        (f64x2.mul (local.get $ss) (v128.load align=8 (i32.add (local.get $row) (local.get $addr))))))
                    (local.set $j (i32.add (local.get $j) (i32.const 2)))
                    (br $axpy)))
                (if (i32.lt_s (local.get $j) (local.get $n))
                  (then
                    (local.set $addr (i32.shl (local.get $j) (i32.const 3)))
                    (f64.store (i32.add (local.get $zq) (local.get $addr))
                      (f64.sub (f64.load (i32.add (local.get $zq) (local.get $addr)))
                        (f64.mul (local.get $s) (f64.load (i32.add (local.get $row) (local.get $addr))))))))
                (local.set $q (i32.add (local.get $q) (i32.const 1)))
                (br $vector)))))
        (local.set $r (i32.sub (local.get $r) (i32.const 1)))
        (br $each))))
)
