;; The rational QL of ql-eigenvalues.ts (EISPACK's tqlrat) on one symmetric tridiagonal or on two
;; at once. Each inner step has a chain of dependent operations through a division, which one
;; tridiagonal leaves the processor waiting on; two run side by side fill those waits with the
;; other's steps. Each tridiagonal's own operations are those of the JavaScript loop, in the same
;; order, so its eigenvalues are bit for bit the same paired, alone, or in JavaScript.
;;
;; A tridiagonal is a state block of 96 bytes (the layout below) holding the addresses of its
;; diagonal d and squared couplings e2 (e2[n - 1] = 0), both overwritten: d ends as the
;; eigenvalues, unordered.
;;   0 d (i32)   4 e2 (i32)   8 n (i32)   12 l (i32)   16 m (i32)   20 iter (i32)   24 fresh (i32)
;;   32 f   40 t   48 b   56 c   64 g   72 h   80 s (f64)
(module
  (memory (export "memory") 1)

  ;; Readies the next sweep: 1 when one is ready (g, h, s set), 0 when every eigenvalue is
  ;; found, -1 after 100 sweeps on one eigenvalue without convergence.
  (func $prepare (param $st i32) (result i32)
    (local $d i32) (local $e i32) (local $n i32) (local $l i32) (local $m i32) (local $iter i32)
    (local $pd i32) (local $pe i32) (local $end i32)
    (local $norm f64) (local $c f64) (local $g f64) (local $delta f64) (local $root f64) (local $h f64) (local $el f64)
    (local $hv v128)
    (local.set $d (i32.load (local.get $st)))
    (local.set $e (i32.load offset=4 (local.get $st)))
    (local.set $n (i32.load offset=8 (local.get $st)))
    (loop $next
      (local.set $l (i32.load offset=12 (local.get $st)))
      (if (i32.ge_s (local.get $l) (local.get $n)) (then (return (i32.const 0))))
      (local.set $pd (i32.add (local.get $d) (i32.shl (local.get $l) (i32.const 3))))
      (local.set $pe (i32.add (local.get $e) (i32.shl (local.get $l) (i32.const 3))))
      (if (i32.load offset=24 (local.get $st))
        (then
          ;; A new l: the norm so far, and the first negligible coupling at or after l.
          (local.set $norm (f64.add (f64.abs (f64.load (local.get $pd))) (f64.sqrt (f64.load (local.get $pe)))))
          (if (f64.lt (f64.load offset=40 (local.get $st)) (local.get $norm))
            (then
              (f64.store offset=40 (local.get $st) (local.get $norm))
              (f64.store offset=48 (local.get $st) (f64.mul (f64.const 0x1p-52) (local.get $norm)))
              (f64.store offset=56 (local.get $st) (f64.mul (f64.load offset=48 (local.get $st)) (f64.load offset=48 (local.get $st))))))
          (local.set $c (f64.load offset=56 (local.get $st)))
          (local.set $m (local.get $l))
          (block $found
            (loop $scan
              (br_if $found (i32.eqz (f64.gt (f64.load (i32.add (local.get $e) (i32.shl (local.get $m) (i32.const 3)))) (local.get $c))))
              (local.set $m (i32.add (local.get $m) (i32.const 1)))
              (br $scan)))
          (i32.store offset=16 (local.get $st) (local.get $m))
          (i32.store offset=20 (local.get $st) (i32.const 0))
          (i32.store offset=24 (local.get $st) (i32.const 0))))
      (local.set $m (i32.load offset=16 (local.get $st)))
      (if (i32.eq (local.get $m) (local.get $l))
        (then
          ;; Converged: the eigenvalue, and on to the next l.
          (f64.store (local.get $pd) (f64.add (f64.load (local.get $pd)) (f64.load offset=32 (local.get $st))))
          (i32.store offset=12 (local.get $st) (i32.add (local.get $l) (i32.const 1)))
          (i32.store offset=24 (local.get $st) (i32.const 1))
          (br $next))))
    (local.set $iter (i32.add (i32.load offset=20 (local.get $st)) (i32.const 1)))
    (if (i32.gt_s (local.get $iter) (i32.const 100)) (then (return (i32.const -1))))
    (i32.store offset=20 (local.get $st) (local.get $iter))
    ;; The shift: d[l] − e²/(δ + sign(δ)·√(δ² + e²)), δ = (d[l + 1] − d[l])/2.
    (local.set $g (f64.load (local.get $pd)))
    (local.set $el (f64.load (local.get $pe)))
    (local.set $delta (f64.mul (f64.const 0.5) (f64.sub (f64.load offset=8 (local.get $pd)) (local.get $g))))
    (local.set $root (f64.sqrt (f64.add (f64.mul (local.get $delta) (local.get $delta)) (local.get $el))))
    (f64.store (local.get $pd)
      (f64.div (local.get $el)
        (f64.add (local.get $delta)
          (select (local.get $root) (f64.neg (local.get $root)) (f64.ge (local.get $delta) (f64.const 0))))))
    (local.set $h (f64.sub (local.get $g) (f64.load (local.get $pd))))
    ;; d[l + 1 …] −= h, two at a time.
    (local.set $end (i32.add (local.get $d) (i32.shl (local.get $n) (i32.const 3))))
    (local.set $pd (i32.add (local.get $pd) (i32.const 8)))
    (local.set $hv (f64x2.splat (local.get $h)))
    (block $shifted
      (loop $shift
        (br_if $shifted (i32.gt_u (i32.add (local.get $pd) (i32.const 16)) (local.get $end)))
        (v128.store align=8 (local.get $pd) (f64x2.sub (v128.load align=8 (local.get $pd)) (local.get $hv)))
        (local.set $pd (i32.add (local.get $pd) (i32.const 16)))
        (br $shift)))
    (if (i32.lt_u (local.get $pd) (local.get $end))
      (then (f64.store (local.get $pd) (f64.sub (f64.load (local.get $pd)) (local.get $h)))))
    (f64.store offset=32 (local.get $st) (f64.add (f64.load offset=32 (local.get $st)) (local.get $h)))
    (local.set $g (f64.load (i32.add (local.get $d) (i32.shl (local.get $m) (i32.const 3)))))
    (if (f64.eq (local.get $g) (f64.const 0)) (then (local.set $g (f64.load offset=48 (local.get $st)))))
    (f64.store offset=64 (local.get $st) (local.get $g))
    (f64.store offset=72 (local.get $st) (local.get $g))
    (f64.store offset=80 (local.get $st) (f64.const 0))
    (i32.const 1))

  ;; After a sweep: d[l] = h, e2[l] = s·g·h, and l converged (m = l) when that is at most c.
  (func $finish (param $st i32)
    (local $l3 i32) (local $x f64)
    (local.set $l3 (i32.shl (i32.load offset=12 (local.get $st)) (i32.const 3)))
    (f64.store (i32.add (i32.load (local.get $st)) (local.get $l3)) (f64.load offset=72 (local.get $st)))
    (local.set $x (f64.mul (f64.mul (f64.load offset=80 (local.get $st)) (f64.load offset=64 (local.get $st))) (f64.load offset=72 (local.get $st))))
    (f64.store (i32.add (i32.load offset=4 (local.get $st)) (local.get $l3)) (local.get $x))
    (if (f64.le (f64.abs (local.get $x)) (f64.load offset=56 (local.get $st)))
      (then (i32.store offset=16 (local.get $st) (i32.load offset=12 (local.get $st))))))

  ;; `count` inner steps of one tridiagonal's sweep, from index i down.
  (func $sweep (param $st i32) (param $i i32) (param $count i32)
    (local $pd i32) (local $pe i32) (local $g f64) (local $h f64) (local $s f64) (local $b f64)
    (local $p f64) (local $r f64) (local $ir f64) (local $ei f64) (local $di f64)
    (local.set $pd (i32.add (i32.load (local.get $st)) (i32.shl (local.get $i) (i32.const 3))))
    (local.set $pe (i32.add (i32.load offset=4 (local.get $st)) (i32.shl (local.get $i) (i32.const 3))))
    (local.set $b (f64.load offset=48 (local.get $st)))
    (local.set $g (f64.load offset=64 (local.get $st)))
    (local.set $h (f64.load offset=72 (local.get $st)))
    (local.set $s (f64.load offset=80 (local.get $st)))
    (block $done
      (loop $step
        (br_if $done (i32.le_s (local.get $count) (i32.const 0)))
        (local.set $ei (f64.load (local.get $pe)))
        (local.set $di (f64.load (local.get $pd)))
        (local.set $p (f64.mul (local.get $g) (local.get $h)))
        (local.set $r (f64.add (local.get $p) (local.get $ei)))
        (local.set $ir (f64.div (f64.const 1) (local.get $r)))
        (f64.store offset=8 (local.get $pe) (f64.mul (local.get $s) (local.get $r)))
        (local.set $s (f64.mul (local.get $ei) (local.get $ir)))
        (f64.store offset=8 (local.get $pd) (f64.add (local.get $h) (f64.mul (local.get $s) (f64.add (local.get $h) (local.get $di)))))
        (local.set $g (f64.sub (local.get $di) (f64.div (local.get $ei) (local.get $g))))
        (if (f64.eq (local.get $g) (f64.const 0)) (then (local.set $g (local.get $b))))
        (local.set $h (f64.mul (f64.mul (local.get $g) (local.get $p)) (local.get $ir)))
        (local.set $pd (i32.sub (local.get $pd) (i32.const 8)))
        (local.set $pe (i32.sub (local.get $pe) (i32.const 8)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $step)))
    (f64.store offset=64 (local.get $st) (local.get $g))
    (f64.store offset=72 (local.get $st) (local.get $h))
    (f64.store offset=80 (local.get $st) (local.get $s)))

  ;; `count` inner steps of each of two sweeps side by side, each from its m − 1 down: tridiagonal
  ;; A in lane 0 and B in lane 1 of each f64x2, so that one instruction does both steps' operation
  ;; (lane-wise, the same IEEE operations as the scalar loop) and one division serves both.
  (func $sweep2 (param $A i32) (param $B i32) (param $count i32)
    (local $pdA i32) (local $peA i32) (local $pdB i32) (local $peB i32)
    (local $g v128) (local $h v128) (local $s v128) (local $b v128) (local $p v128) (local $r v128)
    (local $ir v128) (local $ev v128) (local $dv v128) (local $t v128)
    (local.set $pdA (i32.add (i32.load (local.get $A)) (i32.shl (i32.sub (i32.load offset=16 (local.get $A)) (i32.const 1)) (i32.const 3))))
    (local.set $peA (i32.add (i32.load offset=4 (local.get $A)) (i32.shl (i32.sub (i32.load offset=16 (local.get $A)) (i32.const 1)) (i32.const 3))))
    (local.set $pdB (i32.add (i32.load (local.get $B)) (i32.shl (i32.sub (i32.load offset=16 (local.get $B)) (i32.const 1)) (i32.const 3))))
    (local.set $peB (i32.add (i32.load offset=4 (local.get $B)) (i32.shl (i32.sub (i32.load offset=16 (local.get $B)) (i32.const 1)) (i32.const 3))))
    (local.set $b (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=48 (local.get $A))) (f64.load offset=48 (local.get $B))))
    (local.set $g (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=64 (local.get $A))) (f64.load offset=64 (local.get $B))))
    (local.set $h (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=72 (local.get $A))) (f64.load offset=72 (local.get $B))))
    (local.set $s (f64x2.replace_lane 1 (f64x2.splat (f64.load offset=80 (local.get $A))) (f64.load offset=80 (local.get $B))))
    (block $done
      (loop $step
        (br_if $done (i32.le_s (local.get $count) (i32.const 0)))
        (local.set $ev (v128.load64_lane 1 (local.get $peB) (v128.load64_zero (local.get $peA))))
        (local.set $dv (v128.load64_lane 1 (local.get $pdB) (v128.load64_zero (local.get $pdA))))
        (local.set $p (f64x2.mul (local.get $g) (local.get $h)))
        (local.set $r (f64x2.add (local.get $p) (local.get $ev)))
        (local.set $ir (f64x2.div (f64x2.splat (f64.const 1)) (local.get $r)))
        (local.set $t (f64x2.mul (local.get $s) (local.get $r)))
        (v128.store64_lane offset=8 0 (local.get $peA) (local.get $t))
        (v128.store64_lane offset=8 1 (local.get $peB) (local.get $t))
        (local.set $s (f64x2.mul (local.get $ev) (local.get $ir)))
        (local.set $t (f64x2.add (local.get $h) (f64x2.mul (local.get $s) (f64x2.add (local.get $h) (local.get $dv)))))
        (v128.store64_lane offset=8 0 (local.get $pdA) (local.get $t))
        (v128.store64_lane offset=8 1 (local.get $pdB) (local.get $t))
        (local.set $g (f64x2.sub (local.get $dv) (f64x2.div (local.get $ev) (local.get $g))))
        ;; g = 0 becomes b, lane by lane.
        (local.set $g (v128.bitselect (local.get $b) (local.get $g) (f64x2.eq (local.get $g) (f64x2.splat (f64.const 0)))))
        (local.set $h (f64x2.mul (f64x2.mul (local.get $g) (local.get $p)) (local.get $ir)))
        (local.set $pdA (i32.sub (local.get $pdA) (i32.const 8)))
        (local.set $peA (i32.sub (local.get $peA) (i32.const 8)))
        (local.set $pdB (i32.sub (local.get $pdB) (i32.const 8)))
        (local.set $peB (i32.sub (local.get $peB) (i32.const 8)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $step)))
    (f64.store offset=64 (local.get $A) (f64x2.extract_lane 0 (local.get $g)))
    (f64.store offset=72 (local.get $A) (f64x2.extract_lane 0 (local.get $h)))
    (f64.store offset=80 (local.get $A) (f64x2.extract_lane 0 (local.get $s)))
    (f64.store offset=64 (local.get $B) (f64x2.extract_lane 1 (local.get $g)))
    (f64.store offset=72 (local.get $B) (f64x2.extract_lane 1 (local.get $h)))
    (f64.store offset=80 (local.get $B) (f64x2.extract_lane 1 (local.get $s))))

  ;; The rest of a sweep interleaved for `done` steps: from m − 1 − done down to l.
  (func $rest (param $st i32) (param $done i32)
    (local $m i32)
    (local.set $m (i32.load offset=16 (local.get $st)))
    (call $sweep (local.get $st)
      (i32.sub (i32.sub (local.get $m) (i32.const 1)) (local.get $done))
      (i32.sub (i32.sub (local.get $m) (i32.load offset=12 (local.get $st))) (local.get $done))))

  (func $length (param $st i32) (result i32)
    (i32.sub (i32.load offset=16 (local.get $st)) (i32.load offset=12 (local.get $st))))

  ;; The eigenvalues of the tridiagonal at state A, and of the one at B when B is not 0 (both
  ;; states zeroed by the caller apart from d, e2, n and fresh = 1): 0, or 1 / 2 when A's / B's
  ;; QL did not converge.
  (func (export "ql") (param $A i32) (param $B i32) (result i32)
    (local $a i32) (local $b i32) (local $k i32)
    (local.set $a (call $prepare (local.get $A)))
    (if (local.get $B) (then (local.set $b (call $prepare (local.get $B)))))
    (block $apart
      (loop $together
        (br_if $apart (i32.eqz (i32.and (i32.eq (local.get $a) (i32.const 1)) (i32.eq (local.get $b) (i32.const 1)))))
        (local.set $k (select (call $length (local.get $A)) (call $length (local.get $B))
          (i32.lt_s (call $length (local.get $A)) (call $length (local.get $B)))))
        (call $sweep2 (local.get $A) (local.get $B) (local.get $k))
        (call $rest (local.get $A) (local.get $k))
        (call $rest (local.get $B) (local.get $k))
        (call $finish (local.get $A))
        (call $finish (local.get $B))
        (local.set $a (call $prepare (local.get $A)))
        (local.set $b (call $prepare (local.get $B)))
        (br $together)))
    (block $doneA
      (loop $aloneA
        (br_if $doneA (i32.ne (local.get $a) (i32.const 1)))
        (call $rest (local.get $A) (i32.const 0))
        (call $finish (local.get $A))
        (local.set $a (call $prepare (local.get $A)))
        (br $aloneA)))
    (block $doneB
      (loop $aloneB
        (br_if $doneB (i32.ne (local.get $b) (i32.const 1)))
        (call $rest (local.get $B) (i32.const 0))
        (call $finish (local.get $B))
        (local.set $b (call $prepare (local.get $B)))
        (br $aloneB)))
    (if (i32.lt_s (local.get $a) (i32.const 0)) (then (return (i32.const 1))))
    (if (i32.lt_s (local.get $b) (i32.const 0)) (then (return (i32.const 2))))
    (i32.const 0))
)
