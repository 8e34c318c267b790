;; Householder tridiagonalisation of a symmetric matrix, for the random-matrix filters
;; (src/engine/top-eigen.ts, which holds the same algorithm in JavaScript and documents it).
;; A is row-major n×n at $A; only its lower triangle is read and kept up to date. The reflection
;; of step k goes to row k of $V (V[k*n + j], j > k), its β to $beta[k]; the tridiagonal's diagonal
;; to $d and subdiagonal to $e; $p is n values of scratch. The two O(n²) loops of each step — the
;; product p = A₂₂v and the rank-2 update A₂₂ ← A₂₂ − vwᵀ − wvᵀ — run two columns per f64x2,
;; which is most of the time at n = 50; every sum is a separate multiply and add (no fused ones),
;; so results are the same on every machine. Generated and checked: src/engine/simd/kernel.test.ts.
(module
  (memory (export "memory") 1)

  (func (export "tridiagonalise") (param $A i32) (param $V i32) (param $d i32) (param $e i32)
    (param $beta i32) (param $p i32) (param $n i32)
    (local $k i32) (local $i i32) (local $j i32) (local $stride i32)
    (local $row i32) (local $ri i32) (local $end i32)
    (local $x f64) (local $x0 f64) (local $sigma f64) (local $alpha f64) (local $b f64)
    (local $vi f64) (local $wi f64) (local $s f64) (local $pv f64) (local $K f64) (local $a f64)
    (local $sv v128) (local $av v128) (local $viv v128) (local $wiv v128) (local $addr i32)
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
            ;; p[k+1 ..] = 0
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            (block $z_done
              (loop $z
                (br_if $z_done (i32.ge_s (local.get $i) (local.get $n)))
                (f64.store (i32.add (local.get $p) (i32.shl (local.get $i) (i32.const 3))) (f64.const 0))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $z)))
            ;; p = A₂₂v from the lower triangle: row i gives p[i] its dot with v and each p[j], j < i, A[i][j]·v[i]
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
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
            (block $sc_done
              (loop $sc
                (br_if $sc_done (i32.ge_s (local.get $i) (local.get $n)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (local.set $a (f64.mul (f64.load (i32.add (local.get $p) (local.get $addr))) (local.get $b)))
                (f64.store (i32.add (local.get $p) (local.get $addr)) (local.get $a))
                (local.set $pv (f64.add (local.get $pv) (f64.mul (local.get $a) (f64.load (i32.add (local.get $row) (local.get $addr))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $sc)))
            (local.set $K (f64.mul (f64.mul (f64.const 0.5) (local.get $b)) (local.get $pv)))
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
            (block $w_done
              (loop $w
                (br_if $w_done (i32.ge_s (local.get $i) (local.get $n)))
                (local.set $addr (i32.shl (local.get $i) (i32.const 3)))
                (f64.store (i32.add (local.get $p) (local.get $addr))
                  (f64.sub (f64.load (i32.add (local.get $p) (local.get $addr)))
                    (f64.mul (local.get $K) (f64.load (i32.add (local.get $row) (local.get $addr))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $w)))
            ;; A₂₂ ← A₂₂ − v wᵀ − w vᵀ on the lower triangle (j ≤ i)
            (local.set $i (i32.add (local.get $k) (i32.const 1)))
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
)
