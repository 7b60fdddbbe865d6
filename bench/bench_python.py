"""bench_python.py - what the Python module mbsim costs on top of the C solver (docs/python.md).

    PYTHONPATH=build/python python3 bench/bench_python.py [REPEATS]

- a control loop on the cart-pole (alf-trapezoid, h = 1 ms): per step, the C loop alone
  (Session.advance over 20000 steps: mb_sim_step in C), Session.step() from Python, and a
  controller's period (outputs, a gain, set_input, step) from Python; the same step on Andrews;
- a sweep over the suspension's tunables (2000 and 20000 rows of 0.2 s = 200 steps, 20000 rows
  of 1 step): per row, the sweep's wall time against the same rows in one C loop (the shim's
  mbpy_sweep, which the sweep runs per block), with 1 and 2 processes.
The best of REPEATS (default 5) timings of each, in CPU time of this process (wall time for the
sweep in 2 processes, which only shows a speed-up when 2 cores are free); one line per figure.
"""
import os
import resource
import sys
import time

import numpy as np

import mbsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
REP = int(sys.argv[1]) if len(sys.argv) > 1 else 5


def cpu_all():
    """CPU time of this process and of its children that have ended (the sweep's workers)."""
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def best(f):
    return min(f() for _ in range(REP))


def timed(f, clock=time.process_time):
    """f's cost: this process's CPU time (other programs on a shared machine do not count),
    or with clock=time.perf_counter the wall time (the sweeps across processes)."""
    def run():
        t0 = clock()
        f()
        return clock() - t0
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
    Ky = np.array([-10.0, -10.13, -60.62, -15.42])   # docs/control.md's gain on the sensors: F = -Ky y

    def py_control():
        s.reset()
        for _ in range(N):
            s.set_input("F", float(-Ky @ s.outputs))
            s.step()
    tk = best(timed(py_control)) / N

    def py_io():   # the module's part of a period: the sensors and the input
        for _ in range(N):
            s.outputs
            s.set_input("F", 0.0)
    ti = best(timed(py_io)) / N
    print(f"cartpole step in C (Session.advance):              {tc * 1e6:8.2f} us")
    print(f"cartpole Session.step() from Python:               {tp * 1e6:8.2f} us  (+{(tp - tc) * 1e6:.2f} us)")
    print(f"cartpole controller period from Python (outputs, gain, set_input, step): "
          f"{tk * 1e6:8.2f} us  (+{(tk - tc) * 1e6:.2f} us)")
    print(f"cartpole Session.outputs + set_input from Python:  {ti * 1e6:8.2f} us")

    am = mbsim.Model(os.path.join(ROOT, "models", "andrews.lua"))
    a = am.session(h=1e-5)
    NA = 2000

    def a_c():
        a.reset()
        a.advance(NA * 1e-5)

    def a_py():
        a.reset()
        for _ in range(NA):
            a.step()
    tac, tap = best(timed(a_c)) / NA, best(timed(a_py)) / NA
    print(f"andrews step in C (Session.advance, h = 1e-5):     {tac * 1e6:8.2f} us")
    print(f"andrews Session.step() from Python:                {tap * 1e6:8.2f} us  (+{(tap - tac) * 1e6:.2f} us)")

    sm = mbsim.Model(os.path.join(ROOT, "models", "suspension.lua"))
    for t_end, nrows in ((0.2, 2000), (0.2, 20000), (1e-3, 20000)):
        rows = [{"k": 8000.0 + 8 * i, "c": 500.0 + (i % 7) * 100} for i in range(nrows)]
        ctx = sm._new({"t_end": t_end})
        L = sm._lib
        P = np.array([[sm.params[n] if n not in r else r[n] for n in sm.tunables] for r in rows])
        out = np.empty((nrows, 9 + sm.nq + sm.nout))
        st = np.empty(nrows, dtype=np.int32)
        msg = mbsim.C.create_string_buffer(160 * nrows)

        def solve_only():   # the rows in one C loop (the sweep's own, without Python)
            L.sweep(ctx, nrows, mbsim._ptr(P), t_end, mbsim._ptr(out),
                    st.ctypes.data_as(mbsim.C.POINTER(mbsim.C.c_int)), msg)
        ts = best(timed(solve_only))
        assert not st.any()
        L.free(ctx)
        for procs in (1, 2):
            tw = best(timed(lambda: sm.sweep(rows, processes=procs, t_end=t_end),
                            time.process_time if procs == 1 else time.perf_counter))
            tcpu = best(timed(lambda: sm.sweep(rows, processes=procs, t_end=t_end), cpu_all))
            print(f"suspension sweep, {nrows} rows of {round(t_end / 1e-3)} steps, {procs} process(es): "
                  f"{tw / nrows * 1e6:8.2f} us/row  {'CPU' if procs == 1 else 'wall'}; the rows in one C loop {ts / nrows * 1e6:.2f} us/row"
                  + f"; CPU of all processes {tcpu / nrows * 1e6:.2f} us/row, overhead {(tcpu - ts) / nrows * 1e6:.2f} us/row"
                  + (f"; speed-up {ts / tw:.2f}" if procs > 1 else ""))


if __name__ == "__main__":
    main()
