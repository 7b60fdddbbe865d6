"""mbsim: the generated planar multibody solvers from Python (docs/python.md).

    m = mbsim.Model("models/andrews.lua")          # mbgen + cc, cached by content
    r = m.simulate(0.03, h=1e-5)                    # r.t, r.q, r.v, r.outputs, r.reactions
    s = m.session()                                 # step by step, a controller in the loop
    s.set_input("F", 1.0); s.step(); s.outputs
    lin = m.linearize(about="initial")              # lin.A, lin.B, lin.C, lin.D
    st = m.static()                                 # the equilibrium, its reactions, stability
    table = m.sweep([{"k": 1.0}, {"k": 2.0}], processes=2)

The model runs in this process through ctypes (a shared library per model: _build.py); every
failure of the runtime raises mbsim.Error with its status code and message.
"""
import ctypes as C
import math
import multiprocessing
import os

import numpy as np

from . import _build

__all__ = ["Model", "Session", "Result", "Linearization", "Error"]


class Error(Exception):
    """A failure of the runtime (code: its status, runtime/mb_status.h; 0 when it is not one),
    of mbgen (a bad model file: its message) or of a name or value given to mbsim."""
    def __init__(self, message, code=0):
        super().__init__(message)
        self.code = code
        self.message = message


# the options of a run, in the order of the shim's option array (python/mbsim/_shim.c);
# "_dense" (the integrator's dense output, for simulate's rows) is simulate's own, not an option
_OPTS = ["formulation", "integrator", "h", "rtol", "atol", "alpha", "xi", "omega", "tol",
         "max_iter", "max_steps", "sigma_reset", "baumgarte_cap", "project_velocity", "strict",
         "full_jacobian", "newton_reuse", "hht_alpha", "extrapolate", "t_end", "_dense", "linsys",
         "warn_energy", "warn_phi", "warn_sigma", "warn_stability", "events", "warn_accuracy"]
_OPT_INDEX = {k: i for i, k in enumerate(_OPTS)}
_PUBLIC_OPTS = [k for k in _OPTS if not k.startswith("_")]   # what a caller may give
# the bits of monitor["warn"] and a sweep's warn column: bit k (value 2**k) is WARN_NAMES[k]
# (runtime/mb_sim.h, MB_WARN_*; docs/formulations.md, "Warnings")
WARN_NAMES = ("newton", "energy", "constraint", "sigma", "stability", "accuracy")
_MONITOR = ["steps", "rejected", "evals", "newton_iters", "alf_iters", "maxiter_events",
            "sigma_resets", "factorizations", "energy_dev", "phi_norm", "phid_norm", "sigma_norm",
            "max_energy_dev", "max_phi", "max_phid", "max_sigma", "warn", "T", "V"]
_dp = C.POINTER(C.c_double)
# the t_stop of a step without one: this far ahead of t. The runtime takes finite values only,
# and an adaptive step's floor is 16 eps max(|t|, |t_stop|): a stop at 1e300 made every
# rejected step a step-size underflow
_AHEAD = 1e3


def _ptr(a):
    return a.ctypes.data_as(_dp)


class _Lib:
    """The model's shared library with its functions typed."""
    def __init__(self, path):
        L = self.L = C.CDLL(path)
        vp, d, i, l, cp = C.c_void_p, C.c_double, C.c_int, C.c_long, C.c_char_p
        sig = {
            "mbpy_option_count": (i, []), "mbpy_sizes": (None, [C.POINTER(i)]),
            "mbpy_name": (cp, [i, i]), "mbpy_default": (d, [i, i]),
            "mbpy_status_str": (cp, [i]), "mbpy_formulation_parse": (i, [cp]),
            "mbpy_integrator_parse": (i, [cp]), "mbpy_formulation_name": (cp, [i]),
            "mbpy_integrator_name": (cp, [i]), "mbpy_message": (cp, [vp]),
            "mbpy_new": (vp, [_dp, cp, i, C.POINTER(i)]), "mbpy_free": (None, [vp]),
            "mbpy_set_param": (i, [vp, i, d]), "mbpy_get_param": (d, [vp, i]),
            "mbpy_set_input": (i, [vp, i, d, d]), "mbpy_get_input": (d, [vp, i]),
            "mbpy_reset": (i, [vp, d, _dp, _dp, i]), "mbpy_step": (i, [vp, d]),
            "mbpy_run_to": (i, [vp, d, C.POINTER(l)]), "mbpy_t": (d, [vp]), "mbpy_h": (d, [vp]), "mbpy_p_h": (d, [vp]),
            "mbpy_state": (None, [vp, _dp, _dp]), "mbpy_outputs": (i, [vp, _dp]),
            "mbpy_outputs_at": (i, [vp, d, _dp, _dp, _dp, _dp, _dp]),
            "mbpy_monitor_count": (i, []), "mbpy_monitor": (None, [vp, _dp]),
            "mbpy_reactions": (i, [vp, d, _dp, _dp, _dp, _dp]),
            "mbpy_simulate": (i, [vp, d, l, d, l, _dp, _dp, _dp, _dp, _dp, _dp, _dp, C.POINTER(l)]),
            "mbpy_linearize": (i, [vp, i, d, _dp, C.POINTER(i), C.POINTER(i), _dp, _dp, _dp, _dp, _dp, _dp]),
            "mbpy_sweep_fields": (i, []),
            "mbpy_static": (i, [vp, _dp, _dp, _dp, _dp]),
            "mbpy_kinematic": (i, [vp, d, d, l, _dp, _dp, _dp, _dp, _dp, C.POINTER(l)]),
            "mbpy_sweep": (None, [vp, l, _dp, d, _dp, C.POINTER(i), C.c_char_p]),
        }
        for name, (res, args) in sig.items():
            f = getattr(L, name)
            f.restype, f.argtypes = res, args
            setattr(self, name[5:], f)   # self.step is mbpy_step, without a lookup per call
        assert L.mbpy_option_count() == len(_OPTS) and L.mbpy_monitor_count() == len(_MONITOR)
        assert L.mbpy_sweep_fields() == 1 + 8

    def status_text(self, st):
        return self.L.mbpy_status_str(st).decode()


def _reaction_columns(cnames):
    """The simulator's reaction columns (tools/mb_analysis_cli.c): a revolute joint's fx, fy, a
    prismatic's fn, moment, a driver's effort, a rod's tension, a cam's normal, else the
    multiplier; as (name, row, sign)."""
    cols, r, nc = [], 0, len(cnames)
    while r < nc:
        a = cnames[r]
        b = cnames[r + 1] if r + 1 < nc else None
        if b and a.endswith(".x") and b.endswith(".y") and a[:-2] == b[:-2] and a[:-2]:
            cols += [(a[:-2] + ".fx", r, 1.0), (a[:-2] + ".fy", r + 1, 1.0)]
            r += 2
            continue
        if b and a.endswith(".angle") and b.endswith(".perp") and a[:-6] == b[:-5] and a[:-6]:
            cols += [(a[:-6] + ".fn", r + 1, -1.0), (a[:-6] + ".moment", r, 1.0)]
            r += 2
            continue
        if a.endswith(".dist") and a.count(".") == 1 and len(a) > 5:
            cols.append((a[:-5] + ".tension", r, 1.0))
        elif a.endswith(".profile") and a.count(".") == 1 and len(a) > 8:
            cols.append((a[:-8] + ".normal", r, -1.0))   # the row's gradient is the outward normal
        elif "." not in a:
            cols.append((a + ".effort", r, -1.0))
        else:
            cols.append((a + ".lambda", r, 1.0))
        r += 1
    return cols


class Result:
    """A simulation's rows: t [n], q, v, acc [n x nq] (columns: coords), outputs [n x nout]
    (sensors), reactions [n x ncol] (reaction_names: the simulator's CSV columns), lam [n x nc]
    (the multipliers, constraint_names), energy_dev, phi_norm, phid_norm, sigma_norm [n], and
    the run's monitor (a dict). r["pole.phi"], r["theta"], r["pivot.fx"]: one column by name."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __getitem__(self, name):
        for arr, names in (("q", "coords"), ("outputs", "sensors"), ("reactions", "reaction_names")):
            arr, names = getattr(self, arr, None), getattr(self, names, [])
            if arr is not None and name in names:
                return arr[..., names.index(name)]
        if name in ("t", "energy_dev", "phi_norm", "phid_norm", "sigma_norm"):
            return getattr(self, name)
        raise KeyError(name)


class Linearization:
    """x' = A x + B u, y = C x + D u in minimal coordinates z (states: z, then d(z)), about the
    operating point q, v at t."""
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __iter__(self):   # A, B, C, D = m.linearize()
        return iter((self.A, self.B, self.C, self.D))


class Model:
    """A model file built into a solver: Model(path, defines={"N": 10}, mbgen_flags=[...]).
    A bad file raises Error with mbgen's message."""
    def __init__(self, path, defines=None, mbgen_flags=()):
        try:
            self.library, self.name = _build.build(os.fspath(path), defines, mbgen_flags)
        except _build.BuildError as e:
            raise Error(str(e)) from None
        self.path = os.fspath(path)
        self._lib = _Lib(self.library)
        L = self._lib
        sz = (C.c_int * 7)()
        L.sizes(sz)
        self.nq, self.nc, self.nin, self.nout, self.npar, self.npoint, self.nbody = list(sz)

        def names(kind, n):
            return [(L.name(kind, i) or b"?").decode() for i in range(n)]
        self.coords = names(1, self.nq)
        self.constraints = names(2, self.nc)
        self.inputs = names(3, self.nin)
        self.sensors = names(4, self.nout)
        self.tunables = names(5, self.npar)
        self.bodies = names(6, self.nbody)
        self._rcols = _reaction_columns(self.constraints)
        self.reaction_names = [c[0] for c in self._rcols]
        self._ridx = np.array([c[1] for c in self._rcols], dtype=np.intp)
        self._rsign = np.array([c[2] for c in self._rcols])
        bq = [int(L.default(4, b)) for b in range(self.nbody)]
        vs, acs = ("vx", "vy", "omega"), ("ax", "ay", "alpha")
        self.velocity_names = [f"{self.bodies[b]}.{vs[k]}" for b in range(self.nbody) for k in range(bq[b])]
        self.acceleration_names = [f"{self.bodies[b]}.{acs[k]}" for b in range(self.nbody) for k in range(bq[b])]
        # units (docs/python.md, "Units"): those the model file declares for its inputs, sensors
        # and tunables (None: none declared), and the coordinates' and velocities' own
        def units(kind, n):
            return [u.decode() if u else None for u in (L.name(kind, i) for i in range(n))]
        self.input_units, self.sensor_units, self.tunable_units = units(8, self.nin), units(9, self.nout), units(10, self.npar)
        uq, uv = ("m", "m", "rad"), ("m/s", "m/s", "rad/s")
        self.units = {}
        for names_, us in ((self.coords, [uq[k] for b in range(self.nbody) for k in range(bq[b])]),
                           (self.velocity_names, [uv[k] for b in range(self.nbody) for k in range(bq[b])]),
                           (self.inputs, self.input_units), (self.tunables, self.tunable_units),
                           (self.sensors, self.sensor_units)):
            self.units.update(zip(names_, us))
        self.params = {n: L.default(0, i) for i, n in enumerate(self.tunables)}
        self.input_values = {n: L.default(1, i) for i, n in enumerate(self.inputs)}
        self.t_end = L.default(2, 0) or 5.0
        self.h = L.default(3, 0) or None

    def __repr__(self):
        return f"<mbsim.Model {self.name}: {self.nq} coordinates, {self.nc} constraints, " \
               f"{self.nin} inputs, {self.nout} sensors, {self.npar} tunables>"

    # ---- names and options
    def _index(self, names, name, what):
        try:
            return names.index(name)
        except ValueError:
            have = ", ".join(names) if names else "none"
            raise Error(f"{self.name}: unknown {what} {name!r} (the model's {what}s: {have})") from None

    def _options(self, kw):
        o = np.full(len(_OPTS), np.nan)
        for k, v in kw.items():
            if k not in _OPT_INDEX:
                raise Error(f"{self.name}: unknown option {k!r} (options: {', '.join(_PUBLIC_OPTS)})")
            if v is None:
                continue
            if k in ("formulation", "integrator"):
                parse = self._lib.formulation_parse if k == "formulation" else self._lib.integrator_parse
                x = parse(str(v).encode()) if isinstance(v, str) else int(v)
                if x < 0:
                    raise Error(f"{self.name}: unknown {k} {v!r}")
                v = x
            elif k == "linsys":
                if v not in ("sparse", "dense"):
                    raise Error(f"{self.name}: linsys {v!r}: expected 'sparse' or 'dense'")
                v = 0 if v == "sparse" else 1
            elif isinstance(v, bool):
                v = float(v)
            try:
                o[_OPT_INDEX[k]] = float(v)
            except (TypeError, ValueError):
                raise Error(f"{self.name}: option {k}={v!r} is not a number") from None
        return o

    def _no_effect(self, opts):
        """Options that would change nothing with the integrator chosen are refused (as the
        simulator refuses them: docs/cli.md, "Options that do not apply")."""
        integ = opts.get("integrator")
        form = opts.get("formulation")
        if isinstance(integ, str):
            integ = self._lib.integrator_parse(integ.encode())
        if isinstance(form, str):
            form = self._lib.formulation_parse(form.encode())
        if integ is None:
            integ = 2 if form in (None, 3) else 0
        tol = opts.get("rtol") is not None or opts.get("atol") is not None
        if tol and integ in (0, 5):
            raise Error(f"{self.name}: rtol/atol have no effect with the fixed-step integrator "
                        f"{self._lib.integrator_name(integ).decode()} (its step is h)")
        if opts.get("hht_alpha") is not None and integ != 5:
            raise Error(f"{self.name}: hht_alpha is the damping of integrator hht only")
        if opts.get("extrapolate") and not (integ == 2 and tol):
            raise Error(f"{self.name}: extrapolate is a mode of alf-trapezoid's step control (give rtol or atol)")

    def _check(self, st, ctx=None, what=""):
        if st < 0:
            msg = self._lib.message(ctx).decode() if ctx else ""
            raise Error(f"{self.name}: {what}{msg or self._lib.status_text(st)}", st)
        return st

    def _new(self, opts, params=None, inputs=None):
        """A context with the options (a dict), this model's tunables and inputs (or those given)."""
        o = self._options(opts)
        self._no_effect(opts)
        msg = C.create_string_buffer(512)
        st = C.c_int(0)
        ctx = self._lib.new(_ptr(o), msg, 512, C.byref(st))
        if not ctx:
            raise Error(f"{self.name}: {msg.value.decode() or self._lib.status_text(st.value)}", st.value)
        try:
            for name, v in (self.params if params is None else params).items():
                self._check(self._lib.set_param(ctx, self._index(self.tunables, name, "tunable"), float(v)), ctx)
            for name, v in (self.input_values if inputs is None else inputs).items():
                self._check(self._lib.set_input(ctx, self._index(self.inputs, name, "input"), float(v), 0.0), ctx)
        except BaseException:
            self._lib.free(ctx)
            raise
        return ctx

    # ---- tunables and inputs (the defaults of later runs and sessions)
    def set_param(self, name, value):
        """Set tunable name for the runs and sessions started after (checked against the
        model's rules: Error names the rule broken)."""
        params = dict(self.params)
        params[name] = value
        self._lib.free(self._new({}, params=params))   # the runtime checks it
        self.params = params

    def set_input(self, name, value):
        """The value input name holds in the runs and sessions started after."""
        inputs = dict(self.input_values)
        inputs[name] = value
        self._lib.free(self._new({}, inputs=inputs))
        self.input_values = inputs

    # ---- runs
    def session(self, **opts):
        """A simulation to step from Python, started (assembled) at t = 0: Session."""
        return Session(self, opts)

    def simulate(self, t_end=None, every=None, **opts):
        """Run to t_end (default: the model file's) as the command-line simulator does with the
        same options (formulation, integrator, h, rtol, atol, alpha, ...): a row every `every`
        steps (fixed step; default 1) or every `every` seconds (adaptive runs; default h),
        interpolated by the integrator's dense output. Returns a Result."""
        t_end = float(self.t_end if t_end is None else t_end)
        if not t_end > 0:
            raise Error(f"{self.name}: t_end {t_end} must be > 0")
        o = dict(opts, t_end=t_end, _dense=1)
        ctx = self._new(o)
        try:
            L = self._lib
            self._check(L.reset(ctx, 0.0, None, None, 1), ctx)
            h = L.p_h(ctx)   # the step (adaptive: the first trial step), as the simulator's --h
            if self._is_adaptive(opts):
                dt_out = float(every) if every is not None else h
                if not dt_out > 0:
                    raise Error(f"{self.name}: every={every}: seconds between rows, must be > 0")
                k_every, cap = 1, int(t_end / dt_out) + 3
            else:
                k_every = int(every) if every is not None else 1
                if k_every < 1:
                    raise Error(f"{self.name}: every={every}: steps between rows, must be >= 1")
                dt_out, cap = h, int(t_end / h / k_every) + 3
            nq, nc, no = self.nq, self.nc, self.nout
            T, Q, V, Y = np.empty(cap), np.empty((cap, nq)), np.empty((cap, nq)), np.empty((cap, max(no, 1)))
            A, Lm, M = np.empty((cap, nq)), np.empty((cap, max(nc, 1))), np.empty((cap, 4))
            n = C.c_long(0)
            st = L.simulate(ctx, t_end, k_every, dt_out, cap, _ptr(T), _ptr(Q), _ptr(V), _ptr(Y),
                            _ptr(A), _ptr(Lm), _ptr(M), C.byref(n))
            self._check(st, ctx)
            mon = np.empty(len(_MONITOR))
            L.monitor(ctx, _ptr(mon))
        finally:
            self._lib.free(ctx)
        k = n.value
        lam = Lm[:k, :nc]
        return Result(t=T[:k].copy(), q=Q[:k].copy(), v=V[:k].copy(), acc=A[:k].copy(),
                      outputs=Y[:k, :no].copy(), lam=lam.copy(),
                      reactions=lam[:, self._ridx] * self._rsign if nc else np.empty((k, 0)),
                      energy_dev=M[:k, 0].copy(), phi_norm=M[:k, 1].copy(),
                      phid_norm=M[:k, 2].copy(), sigma_norm=M[:k, 3].copy(),
                      coords=list(self.coords), sensors=list(self.sensors),
                      reaction_names=list(self.reaction_names),
                      constraint_names=list(self.constraints),
                      monitor=dict(zip(_MONITOR, mon.tolist())))

    def _is_adaptive(self, opts):
        integ = opts.get("integrator")
        form = opts.get("formulation")
        if isinstance(integ, str):
            integ = self._lib.integrator_parse(integ.encode())
        if integ is None:
            integ = 2 if form in (None, "alf-trapezoid", 3) else 0
        return integ in (1, 3, 4) or (integ == 2 and (opts.get("rtol") is not None or opts.get("atol") is not None))

    def linearize(self, about="static", q=None, v=None, t=0.0, **opts):
        """The state-space linearization in minimal coordinates about the static equilibrium
        (about="static", from the model's guesses), the assembled initial state ("initial"), or
        a state given (q, v at t): Linearization with A, B, C, D (also A, B, C, D = ...)."""
        ctx = self._new(opts)
        try:
            return _linearize(self, ctx, about, q, v, t)
        finally:
            self._lib.free(ctx)

    def static(self, q=None, **opts):
        """The static equilibrium at t = 0 (loads and drivers frozen) from the guess q (default:
        the model's guesses), as --analysis static: an object with q, reactions
        (reaction_names), lam, outputs (the sensors at rest), stability (1 stable, 0 neutral, -1 unstable), eig_min, eig_max
        (the reduced stiffness' extreme eigenvalues, 1/s^2), dof, rank, iters, residual."""
        ctx = self._new(opts)
        try:
            qo, lam, info = np.empty(self.nq), np.empty(max(self.nc, 1)), np.empty(10)
            g = None if q is None else np.ascontiguousarray(q, dtype=float).reshape(self.nq)
            self._check(self._lib.static(ctx, None if g is None else _ptr(g), _ptr(qo), _ptr(lam), _ptr(info)), ctx)
        finally:
            self._lib.free(ctx)
        lam = lam[:self.nc]
        keys = ["iters", "rejected", "escapes", "dof", "rank", "residual", "eig_min", "eig_max", "stability"]
        vals = {k: (int(x) if k not in ("residual", "eig_min", "eig_max") else float(x)) for k, x in zip(keys, info)}
        y = self._outputs_rows(np.zeros(1), qo.reshape(1, -1), np.zeros((1, self.nq)), opts)[0]
        return Result(q=qo, lam=lam.copy(), reactions=lam[self._ridx] * self._rsign, outputs=y,
                      sensors=list(self.sensors), reaction_names=list(self.reaction_names),
                      coords=list(self.coords), **vals)

    def _outputs_rows(self, T, Q, V, opts):
        """The sensors at the rows (T[k], Q[k], V[k]) of an analysis run with opts ([n x nout]; a
        sensor of a reaction with the multipliers of the exact equations there, which at a state
        of the analysis are its own to rounding)."""
        Y = np.empty((len(T), self.nout))
        if self.nout == 0 or len(T) == 0:
            return Y
        ctx = self._new(opts)
        try:
            y = np.empty(self.nout)
            for k in range(len(T)):
                q, v = np.ascontiguousarray(Q[k], dtype=float), np.ascontiguousarray(V[k], dtype=float)
                self._check(self._lib.outputs_at(ctx, float(T[k]), _ptr(q), _ptr(v), _ptr(y), None, None), ctx)
                Y[k] = y
        finally:
            self._lib.free(ctx)
        return Y

    def kinematic(self, t_end=None, h=None, **opts):
        """Kinematic and inverse-dynamic analysis of a mechanism its drivers leave no freedom,
        as --analysis kinematic: a Result with t, q, v, acc, reactions, outputs (the sensors) at
        t = k h up to t_end."""
        t_end = float(self.t_end if t_end is None else t_end)
        h = float(h if h is not None else self.h or 1e-3)
        if not (t_end > 0 and h > 0):
            raise Error(f"{self.name}: kinematic: t_end {t_end} and h {h} must be > 0")
        ctx = self._new(opts)
        cap = int(math.ceil(t_end / h - 1e-9)) + 2
        T, Q, V, A = np.empty(cap), np.empty((cap, self.nq)), np.empty((cap, self.nq)), np.empty((cap, self.nq))
        Lm = np.empty((cap, max(self.nc, 1)))
        n = C.c_long(0)
        try:
            self._check(self._lib.kinematic(ctx, t_end, h, cap, _ptr(T), _ptr(Q), _ptr(V), _ptr(A), _ptr(Lm),
                                            C.byref(n)), ctx)
        finally:
            self._lib.free(ctx)
        k = n.value
        lam = Lm[:k, :self.nc]
        return Result(t=T[:k].copy(), q=Q[:k].copy(), v=V[:k].copy(), acc=A[:k].copy(), lam=lam.copy(),
                      reactions=lam[:, self._ridx] * self._rsign,
                      outputs=self._outputs_rows(T[:k], Q[:k], V[:k], opts),
                      coords=list(self.coords), sensors=list(self.sensors), reaction_names=list(self.reaction_names),
                      constraint_names=list(self.constraints))

    def _at(self, q, v, inputs):
        inp = dict(self.input_values)
        inp.update(inputs or {})
        qa = np.ascontiguousarray(q, dtype=float).reshape(self.nq)
        va = np.ascontiguousarray(v, dtype=float).reshape(self.nq)
        return self._new({}, inputs=inp), qa, va

    def accelerations(self, q, v, t=0.0, inputs=None):
        """(acc [nq], reactions [reaction_names]) of the exact index-1 equations at (t, q, v),
        with this model's tunables and its inputs (or those given: {name: value})."""
        ctx, qa, va = self._at(q, v, inputs)
        try:
            acc, lam = np.empty(self.nq), np.empty(max(self.nc, 1))
            self._check(self._lib.reactions(ctx, float(t), _ptr(qa), _ptr(va), _ptr(acc), _ptr(lam)), ctx)
        finally:
            self._lib.free(ctx)
        return acc, lam[:self.nc][self._ridx] * self._rsign

    def outputs_at(self, q, v, t=0.0, inputs=None):
        """The sensors at (t, q, v) (model.sensors' order)."""
        ctx, qa, va = self._at(q, v, inputs)
        try:
            y = np.empty(max(self.nout, 1))
            self._check(self._lib.outputs_at(ctx, float(t), _ptr(qa), _ptr(va), _ptr(y), None, None), ctx)
        finally:
            self._lib.free(ctx)
        return y[:self.nout]

    def sweep(self, rows, processes=None, t_end=None, **opts):
        """Run every row of a table in this machine's processes (one solver per process, reset
        between rows): rows is a list of dicts, or a dict of equal-length columns; a column is a
        tunable, an input (held over the run), t_end, or an option (formulation, integrator, h,
        rtol, ...). Returns a NumPy structured array, a row per row: its columns, status (0, or
        the runtime's failure code), message (why a row failed), t reached, the monitor's counts
        and maxima, the final coordinates and sensors (out.<name>)."""
        if isinstance(rows, dict):
            cols = list(rows)
            n = len(rows[cols[0]]) if cols else 0
            if any(len(rows[k]) != n for k in cols):
                raise Error(f"{self.name}: sweep: the columns differ in length")
            table = {k: list(rows[k]) for k in cols}
        else:
            rows = list(rows)
            n = len(rows)
            cols = []
            for r in rows:
                for k in r:
                    if k not in cols:
                        cols.append(k)
            table = {k: [r.get(k) for r in rows] for k in cols}
        for k in cols:   # every name known before anything runs
            if k not in self.tunables and k not in self.inputs and k not in _PUBLIC_OPTS:
                raise Error(f"{self.name}: sweep: unknown column {k!r} (tunables: "
                            f"{', '.join(self.tunables) or 'none'}; inputs: {', '.join(self.inputs) or 'none'}; "
                            f"options: {', '.join(_PUBLIC_OPTS)})")
        base = dict(opts)
        base["t_end"] = self.t_end if t_end is None else t_end
        # the values of every row: tunables and inputs (defaults where a row gives none) ...
        P = np.empty((n, self.npar + self.nin))
        for j, name in enumerate(self.tunables + self.inputs):
            dflt = self.params[name] if j < self.npar else self.input_values[name]
            col = table.get(name)
            try:
                P[:, j] = dflt if col is None else [dflt if x is None else float(x) for x in col]
            except (TypeError, ValueError):
                raise Error(f"{self.name}: sweep: column {name}: not a number") from None
        # ... and the options: rows with the same run as one group (one solver each)
        ocols = [k for k in cols if k in _OPT_INDEX]
        groups = {}
        for i in range(n):
            key = tuple(table[k][i] for k in ocols)
            groups.setdefault(key, []).append(i)
        procs = max(1, min(int(processes or os.cpu_count() or 1), n or 1))
        tasks = []
        for key, idx in groups.items():
            o = dict(base)
            o.update({k: v for k, v in zip(ocols, key) if v is not None})
            chunk = max(1, min(4096, -(-len(idx) // (4 * procs))))
            for a in range(0, len(idx), chunk):
                ii = np.array(idx[a:a + chunk], dtype=np.intp)
                tasks.append((o, ii, P[ii]))
        width = _SWEEP_FIELDS + self.nq + self.nout
        OUT = np.full((n, width), np.nan)
        ST = np.zeros(n, dtype=np.int32)
        MSG = [""] * n
        if procs == 1 or len(tasks) == 1:
            parts = (_sweep_task(self, t) for t in tasks)
            parts = list(parts)
        else:
            global _SWEEP_MODEL
            _SWEEP_MODEL = self
            try:
                with multiprocessing.get_context("fork").Pool(procs) as pool:
                    parts = pool.map(_sweep_worker, tasks, chunksize=1)
            finally:
                _SWEEP_MODEL = None
        for (o, ii, _), (out, st, msg) in zip(tasks, parts):
            OUT[ii], ST[ii] = out, st
            for k, i in enumerate(ii):
                MSG[i] = msg[k]
        fields = []
        for k in cols:
            text = any(isinstance(x, str) for x in table[k])
            fields.append((k, "U32" if text else "f8"))
        names = ["t"] + _SWEEP_MON + self.coords + ["out." + y for y in self.sensors]
        fields += [("status", "i4"), ("message", "U160")] + [(k, "f8") for k in names]
        res = np.zeros(n, dtype=fields)
        for k in cols:
            if res.dtype[k].kind == "U":
                res[k] = ["" if x is None else str(x) for x in table[k]]
            else:
                res[k] = [np.nan if x is None else float(x) for x in table[k]]
        res["status"], res["message"] = ST, MSG
        for j, k in enumerate(names):
            res[k] = OUT[:, j]
        return res


_SWEEP_MON = ["steps", "rejected", "newton_iters", "maxiter_events", "max_energy_dev", "max_phi",
              "max_phid", "warn"]
_SWEEP_FIELDS = 1 + len(_SWEEP_MON)
_SWEEP_MODEL = None


def _sweep_worker(task):
    return _sweep_task(_SWEEP_MODEL, task)


def _sweep_task(m, task):
    """A block of rows with the same options on one solver: (summary rows, statuses, messages)."""
    o, ii, P = task
    k = len(ii)
    out = np.full((k, _SWEEP_FIELDS + m.nq + m.nout), np.nan)
    st = np.zeros(k, dtype=np.int32)
    try:
        ctx = m._new(o, params={}, inputs={})
    except Error as e:   # options that do not run (a bad h, an unknown integrator): every row
        return out, np.full(k, e.code or -1, dtype=np.int32), [e.message] * k
    try:
        P = np.ascontiguousarray(P, dtype=float)
        msg = C.create_string_buffer(160 * max(k, 1))
        m._lib.sweep(ctx, k, _ptr(P), float(o["t_end"]), _ptr(out),
                     st.ctypes.data_as(C.POINTER(C.c_int)), msg)
        raw = msg.raw
        texts = [raw[160 * r:160 * (r + 1)].split(b"\0", 1)[0].decode() for r in range(k)]
        return out, st, [f"{m.name}: {t}" if t else "" for t in texts]
    finally:
        m._lib.free(ctx)


def _linearize(m, ctx, about, q, v, t):
    L, n = m._lib, m.nq
    if q is not None or v is not None:
        if q is None:
            raise Error(f"{m.name}: linearize: v given without q")
        mode = 2
        qv = np.zeros(2 * n)
        qv[:n] = np.asarray(q, dtype=float).reshape(n)
        if v is not None:
            qv[n:] = np.asarray(v, dtype=float).reshape(n)
    elif about in ("static", "initial"):
        mode, qv = (0 if about == "static" else 1), np.zeros(2 * n)
    else:
        raise Error(f"{m.name}: linearize about={about!r}: expected 'static', 'initial' or q=, v=")
    d = C.c_int(0)
    zidx = (C.c_int * max(n, 1))()
    A, B = np.zeros(4 * n * n), np.zeros(max(2 * n * m.nin, 1))
    Cm, D = np.zeros(max(2 * n * m.nout, 1)), np.zeros(max(m.nout * m.nin, 1))
    qop, vop = np.zeros(n), np.zeros(n)
    m._check(L.linearize(ctx, mode, float(t), _ptr(qv), C.byref(d), zidx, _ptr(A), _ptr(B),
                         _ptr(Cm), _ptr(D), _ptr(qop), _ptr(vop)), ctx)
    d2 = 2 * d.value
    z = [m.coords[zidx[j]] for j in range(d.value)]
    return Linearization(A=A[:d2 * d2].reshape(d2, d2).copy(), B=B[:d2 * m.nin].reshape(d2, m.nin).copy(),
                         C=Cm[:m.nout * d2].reshape(m.nout, d2).copy(),
                         D=D[:m.nout * m.nin].reshape(m.nout, m.nin).copy(),
                         states=z + [f"d({c})" for c in z], inputs=list(m.inputs),
                         outputs=list(m.sensors), q=qop, v=vop, t=float(t) if mode == 2 else 0.0)


class Session:
    """One simulation stepped from Python (Model.session(**options)): started at t = 0 from the
    model's guesses, assembled. set_input between steps (held over the next steps, no reset),
    step() one step, advance(dt) the steps to t + dt, outputs the sensors now."""
    def __init__(self, model, opts):
        self.model = model
        self._L = model._lib
        self._ctx = None
        self._ctx = model._new(opts)
        self._opts = dict(opts)
        self._q = np.empty(model.nq)
        self._v = np.empty(model.nq)
        self._y = np.empty(max(model.nout, 1))
        self._qp, self._vp, self._yp = _ptr(self._q), _ptr(self._v), _ptr(self._y)
        self._in = {n: i for i, n in enumerate(model.inputs)}
        self._yv = self._y[:model.nout]
        self._step = self._L.step
        self._set = self._L.set_input
        self._out = self._L.outputs
        self._tf = self._L.t
        self.reset()

    def __del__(self):
        if getattr(self, "_ctx", None):
            self._L.free(self._ctx)
            self._ctx = None

    def close(self):
        self.__del__()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def _fail(self, st):
        raise Error(f"{self.model.name}: {self._L.message(self._ctx).decode() or self._L.status_text(st)}", st)

    def reset(self, q=None, v=None, t0=0.0, assemble=True):
        """Restart at t0 from q, v (default: the model's guesses), assembled unless told not."""
        qa = None if q is None else np.ascontiguousarray(q, dtype=float).reshape(self.model.nq)
        va = None if v is None else np.ascontiguousarray(v, dtype=float).reshape(self.model.nq)
        st = self._L.reset(self._ctx, float(t0), None if qa is None else _ptr(qa),
                           None if va is None else _ptr(va), int(bool(assemble)))
        if st < 0:
            self._fail(st)

    def set_param(self, name, value):
        """Set a tunable and restart (reset) from the model's guesses at t = 0."""
        st = self._L.set_param(self._ctx, self.model._index(self.model.tunables, name, "tunable"), float(value))
        if st < 0:
            self._fail(st)
        self.reset()

    def set_input(self, name, value, slope=0.0):
        """Hold input name at value from now on (with slope: value + slope (t - now))."""
        i = self._in.get(name)
        if i is None:
            self.model._index(self.model.inputs, name, "input")
        st = self._set(self._ctx, i, value, slope)
        if st < 0:
            self._fail(st)

    def step(self, t_stop=None):
        """One step (never past t_stop); returns the status: 0 or a positive event."""
        st = self._step(self._ctx, self.t + _AHEAD if t_stop is None else t_stop)
        if st < 0:
            self._fail(st)
        return st

    def advance(self, dt):
        """The steps to t + dt (the last one lands on it)."""
        st = self._L.run_to(self._ctx, self._L.t(self._ctx) + float(dt), None)
        if st < 0:
            self._fail(st)

    @property
    def t(self):
        return self._tf(self._ctx)

    @property
    def q(self):
        self._L.state(self._ctx, self._qp, None)
        return self._q.copy()

    @property
    def v(self):
        self._L.state(self._ctx, None, self._vp)
        return self._v.copy()

    @property
    def outputs(self):
        """The sensors at the current state (a new array, in model.sensors' order)."""
        st = self._out(self._ctx, self._yp)
        if st < 0:
            self._fail(st)
        return self._yv.copy()

    def output(self, name):
        return self.outputs[self.model._index(self.model.sensors, name, "sensor")]

    def input(self, name):
        return self._L.get_input(self._ctx, self.model._index(self.model.inputs, name, "input"))

    @property
    def monitor(self):
        mon = np.empty(len(_MONITOR))
        self._L.monitor(self._ctx, _ptr(mon))
        return dict(zip(_MONITOR, mon.tolist()))

    def reactions(self):
        """(accelerations [nq], reactions as the simulator names them [reaction_names]) now."""
        n, nc = self.model.nq, self.model.nc
        q, v = self.q, self.v
        acc, lam = np.empty(n), np.empty(max(nc, 1))
        st = self._L.reactions(self._ctx, self.t, _ptr(q), _ptr(v), _ptr(acc), _ptr(lam))
        if st < 0:
            self._fail(st)
        return acc, lam[:nc][self.model._ridx] * self.model._rsign

    def linearize(self, about="state"):
        """The linearization about this session's state now (about="state"), or about="static" /
        "initial" with this session's tunables and inputs."""
        if about == "state":
            return _linearize(self.model, self._ctx, None, self.q, self.v, self.t)
        ctx = self.model._new(self._opts, {n: self._L.get_param(self._ctx, i) for i, n in enumerate(self.model.tunables)},
                              {n: self.input(n) for n in self.model.inputs})
        try:
            return _linearize(self.model, ctx, about, None, None, 0.0)
        finally:
            self._L.free(ctx)
