"""bench_python.py - what the Python module mbsim costs on top of the C solver (docs/python.md).

    PYTHONPATH=build/python python3 bench/bench_python.py [REPEATS]

- a control loop on the cart-pole (alf-trapezoid, h = 1 ms): per step, the C loop alone
  (Session.advance over 20000 steps: mb_sim_step in C), Session.step() from Python, and a
  controller's period (outputs, a gain, set_input, step) from Python;
- a sweep over the suspension's tunables (rows of 0.2 s = 200 steps, and of 1 step): per row,
  the sweep's wall time against the rows' C time (a run_to per row measured alone), with 1 and
  2 processes.
The best of REPEATS (default 5) timings of each; prints one line per figure.
"""
import os
import sys
import time

import numpy as np

import mbsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
REP = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def best(f):
    return min(f() for _ in range(REP))


def timed(f):
    def run():
        t0 = time.perf_counter()
        f()
        return time.perf_counter() - t0
    return run


def main():
    m = mbsim.Model(os.path.join(ROOT, "models", "cartpole.lua"))
    N = 20000
    s = m.session(max_steps=10 ** 9)

    def c_loop():
        s.reset()
        s.advance(N * 1e-3)
    tc = best(timed(c_loop)) / N

    def py_step():
        s.reset()
        step = s.step
        for _ in range(N):
            step()
    tp = best(timed(py_step)) / N
    Ky = np.array([-10.0, -10.13, 60.62, 15.42])   # docs/control.md's gain, on the sensors

    def py_control():
        s.reset()
        for _ in range(N):
            s.set_input("F", float(-Ky @ s.outputs))
            s.step()
    tk = best(timed(py_control)) / N
    print(f"cartpole step in C (Session.advance):              {tc * 1e6:8.2f} us")
    print(f"cartpole Session.step() from Python:               {tp * 1e6:8.2f} us  (+{(tp - tc) * 1e6:.2f} us)")
    print(f"cartpole controller period from Python (outputs, gain, set_input, step): "
          f"{tk * 1e6:8.2f} us  (+{(tk - tc) * 1e6:.2f} us)")

    sm = mbsim.Model(os.path.join(ROOT, "models", "suspension.lua"))
    for t_end, nrows in ((0.2, 2000), (1e-3, 20000)):
        rows = [{"k": 8000.0 + 8 * i, "c": 500.0 + (i % 7) * 100} for i in range(nrows)]
        ctx = sm._new({"t_end": t_end})
        L = sm._lib

        def solve_only():
            for r in rows:
                L.set_param(ctx, 1, r["k"])
                L.set_param(ctx, 2, r["c"])
                L.reset(ctx, 0.0, None, None, 1)
                L.run_to(ctx, t_end, None)
        ts = best(timed(solve_only))
        L.free(ctx)
        for procs in (1, 2):
            tw = best(timed(lambda: sm.sweep(rows, processes=procs, t_end=t_end)))
            print(f"suspension sweep, {nrows} rows of {round(t_end / 1e-3)} steps, {procs} process(es): "
                  f"{tw / nrows * 1e6:8.2f} us/row wall; the rows' C time {ts / nrows * 1e6:.2f} us/row; "
                  + (f"; overhead {(tw - ts) / nrows * 1e6:.2f} us/row" if procs == 1 else
                     f"; {ts / tw:.2f}x the rows' C time"))


if __name__ == "__main__":
    main()
