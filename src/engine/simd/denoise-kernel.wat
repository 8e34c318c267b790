;; The last pass of denoise=mp (src/engine/random-matrix.ts denoiseMp, which holds the same loop in
;; JavaScript and documents it): every cell of the rebuilt, rescaled matrix, Σ_q u_q[i]·u_q[j]
;; clipped to [−1, 1], with the diagonal 1. Two cells per f64x2. Each cell's operations are the
;; JavaScript loop's, in its order (the first two components, then each further one, then the
;; clip), so the matrix is the same bit for bit. Generated and checked: src/engine/simd/kernel.test.ts.
;; The k ≥ 1 vectors u_q are at $U (u_q at U + 8qn); the n×n matrix goes to $O.
(module
  (memory (export "memory") 1)

  (func (export "rebuild") (param $U i32) (param $k i32) (param $n i32) (param $O i32)
    (local $i i32) (local $q i32) (local $stride i32) (local $u1 i32) (local $row i32) (local $pj i32) (local $end i32)
    (local $pu i32) (local $off i32)
    (local $a f64) (local $b f64) (local $x f64) (local $av v128) (local $bv v128) (local $rv v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    ;; The second component, or (k = 1) the first again with weight 0, as the JavaScript loop reads it.
    (local.set $u1 (select (i32.add (local.get $U) (local.get $stride)) (local.get $U) (i32.gt_s (local.get $k) (i32.const 1))))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $off (i32.shl (local.get $i) (i32.const 3)))
        (local.set $a (f64.load (i32.add (local.get $U) (local.get $off))))
        (local.set $b (select (f64.load (i32.add (local.get $u1) (local.get $off))) (f64.const 0) (i32.gt_s (local.get $k) (i32.const 1))))
        (local.set $av (f64x2.splat (local.get $a)))
        (local.set $bv (f64x2.splat (local.get $b)))
        (local.set $row (i32.add (local.get $O) (i32.mul (local.get $i) (local.get $stride))))
        (local.set $pj (i32.const 0))
        (local.set $end (i32.and (local.get $stride) (i32.const -16)))
        ;; Two cells at a time.
        (block $pairs_done
          (loop $pairs
            (br_if $pairs_done (i32.ge_u (local.get $pj) (local.get $end)))
            (local.set $rv (f64x2.add
              (f64x2.mul (local.get $av) (v128.load align=8 (i32.add (local.get $U) (local.get $pj))))
              (f64x2.mul (local.get $bv) (v128.load align=8 (i32.add (local.get $u1) (local.get $pj))))))
            (local.set $q (i32.const 2))
            (block $more_done
              (loop $more
                (br_if $more_done (i32.ge_s (local.get $q) (local.get $k)))
                (local.set $pu (i32.add (local.get $U) (i32.mul (local.get $q) (local.get $stride))))
                (local.set $rv (f64x2.add (local.get $rv)
                  (f64x2.mul (f64x2.splat (f64.load (i32.add (local.get $pu) (local.get $off))))
                    (v128.load align=8 (i32.add (local.get $pu) (local.get $pj))))))
                (local.set $q (i32.add (local.get $q) (i32.const 1)))
                (br $more)))
            ;; r > 1 ? 1 : r < −1 ? −1 : r, NaN kept.
            (v128.store align=8 (i32.add (local.get $row) (local.get $pj))
              (f64x2.pmax (f64x2.pmin (local.get $rv) (f64x2.splat (f64.const 1))) (f64x2.splat (f64.const -1))))
            (local.set $pj (i32.add (local.get $pj) (i32.const 16)))
            (br $pairs)))
        ;; An odd last cell.
        (if (i32.lt_u (local.get $pj) (local.get $stride))
          (then
            (local.set $x (f64.add
              (f64.mul (local.get $a) (f64.load (i32.add (local.get $U) (local.get $pj))))
              (f64.mul (local.get $b) (f64.load (i32.add (local.get $u1) (local.get $pj))))))
            (local.set $q (i32.const 2))
            (block $tail_done
              (loop $tail
                (br_if $tail_done (i32.ge_s (local.get $q) (local.get $k)))
                (local.set $pu (i32.add (local.get $U) (i32.mul (local.get $q) (local.get $stride))))
                (local.set $x (f64.add (local.get $x)
                  (f64.mul (f64.load (i32.add (local.get $pu) (local.get $off))) (f64.load (i32.add (local.get $pu) (local.get $pj))))))
                (local.set $q (i32.add (local.get $q) (i32.const 1)))
                (br $tail)))
            (f64.store (i32.add (local.get $row) (local.get $pj))
              (select (f64.const 1)
                (select (f64.const -1) (local.get $x) (f64.lt (local.get $x) (f64.const -1)))
                (f64.gt (local.get $x) (f64.const 1))))))
        (f64.store (i32.add (local.get $row) (local.get $off)) (f64.const 1))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))))
