"""Tests of the Python module mbsim (python/mbsim, docs/python.md), run by tests/test_python.sh.

- the same run as the command-line simulator (same model and options): every CSV column the
  module returns (t, q, v, accelerations, reactions, sensors) within 1e-12 (relative to 1 + |x|:
  the CSV holds 15 digits), fixed steps (Andrews, the cart-pole) and an adaptive run with dense
  output (double pendulum, dopri5); a tunable set through the module against the simulator's --set;
- sensors that read reactions (tests/models/react_sensors.lua): every column as the simulator's,
  the cam's reaction named and signed as the CSV's C.normal, a session's sensors as the run's;
- a Python LQR controller (Riccati from the module's linearization) closing the loop on the
  cart-pole: the pole kept up from 0.2 rad; without the controller it falls;
- the linearization against central differences of the accelerations and sensors;
- sessions: step by step equals simulate; sweeps in one and in two processes equal the runs one
  at a time, a row that breaks a rule is reported and the rest complete;
- hostile input: a missing file, a model mbgen refuses, unknown names, bad options, a run that
  fails in the runtime: mbsim.Error with the runtime's (or mbgen's) message and status code.
"""
import csv
import math
import os
import subprocess

import numpy as np
import pytest

import mbsim

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
MODELS = os.path.join(ROOT, "models")


def model(name, **kw):
    return mbsim.Model(os.path.join(MODELS, name + ".lua"), **kw)


@pytest.fixture(scope="module")
def cartpole():
    return model("cartpole")


def cli_csv(tmp_path, name, *args):
    out = tmp_path / f"{name}.csv"
    subprocess.run([os.path.join(BUILD, f"{name}_sim"), "--quiet", "--out", str(out)] + list(args),
                   check=True, capture_output=True)
    with open(out) as f:
        rows = list(csv.reader(f))
    data = np.array([[float(x) if x else np.nan for x in r] for r in rows[1:]])
    return rows[0], data


def compare(m, r, hdr, data):
    """Every column of the result against the CSV's; returns the columns compared."""
    assert data.shape[0] == len(r.t), (data.shape, len(r.t))
    cols = [("t", r.t)]
    cols += [(c, r.q[:, i]) for i, c in enumerate(m.coords)]
    cols += [(c, r.v[:, i]) for i, c in enumerate(m.velocity_names)]
    cols += [(c, r.acc[:, i]) for i, c in enumerate(m.acceleration_names)]
    cols += [(c, r.reactions[:, i]) for i, c in enumerate(m.reaction_names)]
    cols += [("out." + c, r.outputs[:, i]) for i, c in enumerate(m.sensors)]
    for name, col in cols:
        ref = data[:, hdr.index(name)]
        err = np.max(np.abs(ref - col) / (1 + np.abs(ref)))
        assert err <= 1e-12, f"{name}: {err:.3g}"
    return len(cols)


@pytest.mark.parametrize("name,args,kw", [
    ("andrews", ["--t-end", "0.002"], {"t_end": 0.002}),
    ("cartpole", ["--t-end", "0.5", "--every", "5"], {"t_end": 0.5, "every": 5}),
    ("double_pendulum", ["--t-end", "0.5", "--formulation", "baumgarte", "--integrator", "dopri5",
                         "--rtol", "1e-8", "--every", "0.01"],
     {"t_end": 0.5, "formulation": "baumgarte", "integrator": "dopri5", "rtol": 1e-8, "every": 0.01}),
    ("double_pendulum", ["--t-end", "0.2", "--rtol", "1e-7", "--h", "0.02"],   # rows every h
     {"t_end": 0.2, "rtol": 1e-7, "h": 0.02}),
    ("slider_crank", ["--t-end", "0.2", "--formulation", "alf-explicit", "--h", "1e-4"],
     {"t_end": 0.2, "formulation": "alf-explicit", "h": 1e-4}),
    # contacts located as events by default, as the simulator does (and not, with events=False)
    ("bouncing_ball", ["--t-end", "0.8", "--formulation", "baumgarte", "--integrator", "dopri5",
                       "--rtol", "1e-8", "--every", "0.01"],
     {"t_end": 0.8, "formulation": "baumgarte", "integrator": "dopri5", "rtol": 1e-8, "every": 0.01}),
    ("bouncing_ball", ["--t-end", "0.8", "--formulation", "baumgarte", "--integrator", "dopri5",
                       "--rtol", "1e-8", "--every", "0.01", "--no-events"],
     {"t_end": 0.8, "formulation": "baumgarte", "integrator": "dopri5", "rtol": 1e-8, "every": 0.01,
      "events": False}),
])
def test_same_as_simulator(tmp_path, name, args, kw):
    m = model(name)
    hdr, data = cli_csv(tmp_path, name, *args)
    r = m.simulate(**kw)
    assert compare(m, r, hdr, data) > 2 * m.nq
    assert r.monitor["steps"] > 0


def test_reaction_sensors_as_simulator(tmp_path):
    # tests/models/react_sensors.lua: a sensor on a reaction of every joint kind, a driver and a
    # cam; every column as the simulator's, the cam's named C.normal with the CSV's sign
    m = mbsim.Model(os.path.join(ROOT, "tests", "models", "react_sensors.lua"))
    assert "Cm.normal" in m.reaction_names and not any(n.endswith(".profile.lambda") for n in m.reaction_names)
    for args, kw in ((["--t-end", "0.3"], {"t_end": 0.3}),
                     (["--t-end", "0.3", "--formulation", "baumgarte", "--integrator", "rk4"],
                      {"t_end": 0.3, "formulation": "baumgarte", "integrator": "rk4"})):
        hdr, data = cli_csv(tmp_path, "react_sensors", *args)
        r = m.simulate(**kw)
        assert compare(m, r, hdr, data) > 2 * m.nq
        # the sensors that are a reaction equal its column exactly, the cam's included
        for sensor, col in (("Cm", "Cm.normal"), ("Jfx", "J.fx"), ("Deffort", "D.effort"), ("Rd", "Rd.tension")):
            assert np.array_equal(r[sensor], r[col]), sensor
        assert np.max(np.abs(r["Cm"])) > 1e-3      # the cam carries load: the sign is tested
    # a session's sensors of reactions (mb_sim_get_output) equal the run's rows bit for bit
    r = m.simulate(t_end=0.1)
    s = m.session()
    s.advance(0.1)
    assert np.array_equal(s.q, r.q[-1])
    assert np.array_equal(s.outputs, r.outputs[-1])
    acc, rea = s.reactions()
    assert s.output("Cm") == rea[m.reaction_names.index("Cm.normal")]


def test_tunable_same_as_set(tmp_path):
    m = model("suspension")
    hdr, data = cli_csv(tmp_path, "suspension", "--t-end", "0.3", "--set", "k=20000", "--set", "c=500")
    m.set_param("k", 20000)
    m.set_param("c", 500)
    r = m.simulate(0.3)
    compare(m, r, hdr, data)
    # and the default differs (the setting has an effect)
    r0 = model("suspension").simulate(0.3)
    assert np.max(np.abs(r0.q - r.q)) > 1e-4


def lqr(A, B, Q, R):
    """The stabilizing solution of A'P + PA - PBR^-1B'P + Q = 0 from the stable invariant
    subspace of the Hamiltonian matrix; K = R^-1 B' P."""
    n = A.shape[0]
    Ri = np.linalg.inv(R)
    H = np.block([[A, -B @ Ri @ B.T], [-Q, -A.T]])
    w, V = np.linalg.eig(H)
    U = V[:, w.real < 0]
    assert U.shape[1] == n
    P = np.real(U[n:] @ np.linalg.inv(U[:n]))
    P = (P + P.T) / 2
    res = A.T @ P + P @ A - P @ B @ Ri @ B.T @ P + Q
    assert np.max(np.abs(res)) <= 1e-9 * np.max(np.abs(Q))
    return Ri @ B.T @ P


def closed_loop(m, Ky, t_end=5.0):
    s = m.session()
    thetas, xs, t = [], [], []
    while s.t < t_end - 1e-9:
        y = s.outputs
        s.set_input("F", float(-Ky @ y))
        s.advance(0.01)   # a 100 Hz controller, F held between samples
        y = s.outputs
        t.append(s.t)
        xs.append(y[0])
        thetas.append(y[2])
    return np.array(t), np.array(xs), np.array(thetas)


def test_lqr_keeps_the_pole_up(cartpole):
    m = cartpole
    up = np.array([0, 0, 0, 0, 0.5, math.pi / 2])   # the pole upright above the cart
    lin = m.linearize(q=up, v=np.zeros(6))
    assert lin.states == ["cart.x", "pole.phi", "d(cart.x)", "d(pole.phi)"]
    assert max(np.linalg.eigvals(lin.A).real) > 3.9   # the upright pole falls: 3.97 1/s
    Qy = np.diag([100.0, 1.0, 100.0, 1.0])
    K = lqr(lin.A, lin.B, lin.C.T @ Qy @ lin.C, np.eye(1))
    assert max(np.linalg.eigvals(lin.A - lin.B @ K).real) < 0
    Ky = (K @ np.linalg.inv(lin.C))[0]
    t, x, theta = closed_loop(m, Ky)
    assert abs(theta[0]) > 0.1   # it started 0.2 rad away
    last = t >= 4.0
    assert np.max(np.abs(theta[last])) < 1e-3 and np.max(np.abs(x[last])) < 1e-2
    # without the controller the same start falls
    _, _, theta0 = closed_loop(m, 0 * Ky, 2.0)
    assert np.max(np.abs(theta0)) > 1.0


def cartpole_state(z, zd, l=0.5):
    """q, v of the cart-pole from its minimal coordinates (cart.x, pole.phi) and their rates."""
    x, phi = z
    xd, phid = zd
    q = np.array([x, 0, 0, x + l * math.cos(phi), l * math.sin(phi), phi])
    v = np.array([xd, 0, 0, xd - l * math.sin(phi) * phid, l * math.cos(phi) * phid, phid])
    return q, v


def test_linearize_against_differences(cartpole):
    m = cartpole
    z0, zd0, u0 = np.array([0.1, 1.3]), np.array([0.4, -0.7]), 2.0
    q, v = cartpole_state(z0, zd0)
    m2 = model("cartpole")
    m2.set_input("F", u0)
    lin = m2.linearize(q=q, v=v)
    assert lin.states == ["cart.x", "pole.phi", "d(cart.x)", "d(pole.phi)"]
    iz = [m.coords.index("cart.x"), m.coords.index("pole.phi")]

    def f(x, u):
        qq, vv = cartpole_state(x[:2], x[2:])
        acc, _ = m.accelerations(qq, vv, inputs={"F": u})
        return np.concatenate([x[2:], acc[iz]])

    def g(x, u):
        qq, vv = cartpole_state(x[:2], x[2:])
        return m.outputs_at(qq, vv, inputs={"F": u})
    x0 = np.concatenate([z0, zd0])
    e = 1e-6
    Afd = np.column_stack([(f(x0 + e * ei, u0) - f(x0 - e * ei, u0)) / (2 * e) for ei in np.eye(4)])
    Cfd = np.column_stack([(g(x0 + e * ei, u0) - g(x0 - e * ei, u0)) / (2 * e) for ei in np.eye(4)])
    Bfd = (f(x0, u0 + e) - f(x0, u0 - e)) / (2 * e)
    Dfd = (g(x0, u0 + e) - g(x0, u0 - e)) / (2 * e)
    assert np.max(np.abs(lin.A - Afd)) <= 1e-7 * (1 + np.max(np.abs(lin.A)))
    assert np.max(np.abs(lin.B[:, 0] - Bfd)) <= 1e-7
    assert np.max(np.abs(lin.C - Cfd)) <= 1e-7
    assert np.max(np.abs(lin.D[:, 0] - Dfd)) <= 1e-7
    # a state away from rest: A's velocity block is not zero (the test sees the v terms)
    assert np.max(np.abs(lin.A[2:, 2:])) > 0.01


def test_linearize_static_and_initial():
    m = model("double_pendulum")
    lin = m.linearize(about="static")
    w = np.linalg.eigvals(lin.A)
    assert lin.A.shape == (4, 4) and np.max(np.abs(w.real)) < 1e-8   # hanging: undamped
    assert np.all(np.abs(w.imag) > 1)
    assert np.max(np.abs(m.accelerations(lin.q, lin.v)[0])) < 1e-9   # an equilibrium
    ini = m.linearize(about="initial")
    assert ini.A.shape == (4, 4)


def test_session_equals_simulate(cartpole):
    r = cartpole.simulate(0.2)
    s = cartpole.session()
    for k in range(100):
        s.step()
    assert s.t == pytest.approx(0.1, abs=1e-15)
    s.advance(0.1)
    assert s.t == pytest.approx(0.2, abs=1e-15)
    assert np.array_equal(s.q, r.q[-1]) and np.array_equal(s.v, r.v[-1])
    assert np.array_equal(s.outputs, r.outputs[-1])
    acc, rea = s.reactions()
    assert np.array_equal(rea, r.reactions[-1])
    s.reset()
    assert s.t == 0 and np.array_equal(s.q, r.q[0])


def test_adaptive_steps_without_a_stop(cartpole):
    # a rejected step must not be a step-size underflow (the stop used to be 1e300 s ahead)
    s = cartpole.session(formulation="baumgarte", integrator="dopri5")
    s.set_input("F", 5.0)
    for k in range(300):
        s.step()
    assert 0 < s.t < 1e3
    r = cartpole.session(formulation="baumgarte", integrator="dopri5")
    r.set_input("F", 5.0)
    r.advance(s.t)
    assert np.allclose(r.q, s.q, rtol=1e-5, atol=1e-7)


def test_sweep_in_processes():
    m = model("suspension")
    rows = [{"k": k, "c": c} for k in (8000.0, 16000.0, 32000.0) for c in (500.0, 1000.0)]
    rows.append({"k": -1.0, "c": 1000.0})   # breaks the rule k >= 0
    one = m.sweep(rows, processes=1, t_end=0.2)
    two = m.sweep(rows, processes=2, t_end=0.2)
    assert len(one) == len(rows)
    assert np.array_equal(one["status"][:-1], np.zeros(len(rows) - 1))
    assert one["status"][-1] == -1 and "k" in one["message"][-1]
    for name in one.dtype.names:
        if one.dtype[name].kind == "f":
            assert np.array_equal(one[name], two[name], equal_nan=True), name
    for i, r in enumerate(rows[:-1]):
        mi = model("suspension")
        for k, v in r.items():
            mi.set_param(k, v)
        res = mi.simulate(0.2)
        for j, c in enumerate(m.coords):
            assert one[c][i] == res.q[-1, j]
        assert one["steps"][i] == res.monitor["steps"]
    # an option column and a dict of columns
    t = m.sweep({"k": [16000.0, 16000.0], "h": [1e-3, 5e-4]}, processes=1, t_end=0.1)
    assert list(t["steps"]) == [100, 200]


def test_cache_and_defines():
    a = model("chain", defines={"N": 3})
    b = model("chain", defines={"N": 3})
    c = model("chain", defines={"N": 5})
    assert a.library == b.library and a.library != c.library
    assert a.nq == 9 and c.nq == 15


def test_units(cartpole):
    # the model file's declarations (models/cartpole.lua, suspension.lua, motor_arm.lua) and
    # the coordinates' own units
    assert cartpole.input_units == ["N"]
    assert cartpole.sensor_units == ["m", "m/s", "rad", "rad/s"]
    u = cartpole.units
    assert u["F"] == "N" and u["x"] == "m" and u["thetadot"] == "rad/s"
    assert u["cart.x"] == "m" and u["pole.phi"] == "rad" and u["pole.omega"] == "rad/s" and u["cart.vy"] == "m/s"
    assert set(u) == set(cartpole.coords + cartpole.velocity_names + cartpole.inputs + cartpole.sensors)
    s = model("suspension")
    assert dict(zip(s.tunables, s.tunable_units)) == {"m": "kg", "k": "N/m", "c": "N.s/m", "F": "N", "a": "m"}
    assert s.units["k"] == "N/m"
    # no declaration: None; a contact's sensors carry theirs
    b = model("bouncing_ball")
    assert b.units["floor.gap"] == "m" and b.units["floor.normal"] == "N" and b.units["floor.slip"] == "m/s"
    d = model("double_pendulum")
    assert d.input_units == [] and d.sensor_units == [] and d.tunable_units == []
    r = mbsim.Model(os.path.join(ROOT, "tests", "models", "react_sensors.lua"))
    assert r.sensor_units and all(x is None for x in r.sensor_units)


# ---- hostile input

def test_missing_file():
    with pytest.raises(mbsim.Error, match="no_such_model.lua"):
        mbsim.Model(os.path.join(MODELS, "no_such_model.lua"))


def test_bad_model(tmp_path):
    p = tmp_path / "bad.lua"
    p.write_text('name "bad"\nbody "b" { mass = -1, inertia = 1 }\n')
    with pytest.raises(mbsim.Error, match=r"bad\.lua:2"):
        mbsim.Model(str(p))
    p.write_text('name "bad2"\nbody "b" { mass = 1, inertia = 1\n')   # a syntax error
    with pytest.raises(mbsim.Error, match=r"bad\.lua"):
        mbsim.Model(str(p))
    # a unit that is not a unit expression: mbgen's message, nothing built
    p.write_text('name "bad3"\nground { O = { 0, 0 } }\n'
                 'body "b" { mass = 1, inertia = 1, points = { O = { 0, 0 } } }\n'
                 'revolute "J" { "ground.O", "b.O" }\nsensor "y" { value = rate("J"), unit = "m\\"\\n" }\n')
    with pytest.raises(mbsim.Error, match=r"bad\.lua:5: error: sensor \"y\": unit .* is not a unit expression"):
        mbsim.Model(str(p))


def test_unknown_names(cartpole):
    s = cartpole.session()
    with pytest.raises(mbsim.Error, match=r"unknown input 'G'.*F"):
        s.set_input("G", 1.0)
    with pytest.raises(mbsim.Error, match="unknown tunable"):
        cartpole.set_param("k", 1.0)
    with pytest.raises(mbsim.Error, match="unknown option 'hh'"):
        cartpole.simulate(0.1, hh=1e-3)
    with pytest.raises(mbsim.Error, match="unknown formulation"):
        cartpole.simulate(0.1, formulation="euler")
    with pytest.raises(mbsim.Error, match="unknown column"):
        cartpole.sweep([{"mass": 1.0}])
    with pytest.raises(mbsim.Error, match=r"unknown option 'dense' \(options: .*warn_accuracy"):
        cartpole.simulate(0.1, dense=1)   # simulate's own, not an option


def test_warn_accuracy_and_warn_names(cartpole):
    """warn_accuracy is the simulator's --warn-accuracy: a threshold far below bdf's error sum
    sets the accuracy bit, 0 turns the check off; the bits are named by mbsim.WARN_NAMES."""
    acc = 1 << mbsim.WARN_NAMES.index("accuracy")
    assert mbsim.WARN_NAMES.index("energy") == 1 and acc == 32
    on = cartpole.simulate(0.5, integrator="bdf", rtol=1e-6, warn_accuracy=1e-3).monitor["warn"]
    off = cartpole.simulate(0.5, integrator="bdf", rtol=1e-6, warn_accuracy=0).monitor["warn"]
    assert int(on) & acc and not int(off) & acc


def test_runtime_errors(tmp_path, cartpole):
    with pytest.raises(mbsim.Error, match="invalid parameters: h") as e:
        cartpole.simulate(0.1, h=-1e-3)
    assert e.value.code == -1
    with pytest.raises(mbsim.Error, match="no effect"):   # rk4 has no tolerances
        cartpole.simulate(0.1, formulation="baumgarte", rtol=1e-6)
    with pytest.raises(mbsim.Error) as e:   # an integrator the formulation does not take
        cartpole.simulate(0.1, formulation="alf-explicit", integrator="trapezoid")
    assert e.value.code == -1
    s = cartpole.session()
    with pytest.raises(mbsim.Error, match="invalid parameter") as e:
        s.set_input("F", math.nan)
    m = model("suspension")
    with pytest.raises(mbsim.Error, match="mass") as e:
        m.set_param("m", 0.0)
    assert e.value.code == -1 and m.params["m"] == 250
    # an assembly that cannot succeed: the status and the constraint named
    bad = mbsim.Model(os.path.join(ROOT, "tests", "models", "fault_noassembly.lua"))
    with pytest.raises(mbsim.Error, match="assembly.*failed") as e:
        bad.simulate(0.1)
    assert e.value.code == -6
    # a run that blows up: the runtime's message with the time
    with pytest.raises(mbsim.Error, match="runtime fault at t=") as e:
        cartpole.simulate(2.0, formulation="baumgarte", h=0.5)
    assert e.value.code < 0


def cli_analysis(tmp_path, name, *args):
    """(summary line fields, CSV header, rows) of a simulator's --analysis run."""
    out = tmp_path / f"{name}_an.csv"
    r = subprocess.run([os.path.join(BUILD, f"{name}_sim"), "--quiet", "--out", str(out)] + list(args),
                       check=True, capture_output=True, text=True)
    summary = dict(w.split("=", 1) for w in r.stdout.split() if "=" in w)
    with open(out) as f:
        rows = list(csv.reader(f))
    return summary, rows[0], np.array([[float(x) if x else np.nan for x in r] for r in rows[1:]])


def test_static_and_kinematic_as_simulator(tmp_path):
    m = mbsim.Model(os.path.join(ROOT, "tests", "models", "anl_pendulum.lua"))
    summ, hdr, data = cli_analysis(tmp_path, "anl_pendulum", "--analysis", "static")
    st = m.static()
    assert st.stability == 1 and st.iters == int(summ["iterations"]) and st.dof == int(summ["dof"])
    assert abs(st.eig_min - float(summ["eig_min"])) <= 1e-8 * abs(st.eig_min)
    for i, c in enumerate(m.coords):
        assert abs(st.q[i] - data[0, hdr.index(c)]) <= 1e-12 * (1 + abs(st.q[i])), c
    for i, c in enumerate(m.reaction_names):
        assert abs(st.reactions[i] - data[0, hdr.index(c)]) <= 1e-12 * (1 + abs(st.reactions[i])), c
    k = mbsim.Model(os.path.join(ROOT, "tests", "models", "anl_slider_driven.lua"))
    summ, hdr, data = cli_analysis(tmp_path, "anl_slider_driven", "--analysis", "kinematic",
                                   "--t-end", "0.2", "--h", "0.01")
    r = k.kinematic(0.2, h=0.01)
    assert len(r.t) == int(summ["outputs"]) == data.shape[0]
    cols = [(c, r.q[:, i]) for i, c in enumerate(k.coords)]
    cols += [(c, r.v[:, i]) for i, c in enumerate(k.velocity_names)]
    cols += [(c, r.acc[:, i]) for i, c in enumerate(k.acceleration_names)]
    cols += [(c, r.reactions[:, i]) for i, c in enumerate(k.reaction_names)]
    cols += [("out." + c, r.outputs[:, i]) for i, c in enumerate(k.sensors)]   # the driver's torque too
    assert k.sensors and r.outputs.shape == (len(r.t), len(k.sensors))
    for name, col in cols:
        ref = data[:, hdr.index(name)]
        assert np.max(np.abs(ref - col) / (1 + np.abs(ref))) <= 1e-12, name
    # a mechanism with freedom left: the degrees named
    with pytest.raises(mbsim.Error, match="degree of freedom not driven"):
        m.kinematic(0.1, h=0.01)
    # no equilibrium (a body falling freely): the runtime's reason
    with pytest.raises(mbsim.Error, match="static analysis failed") as e:
        mbsim.Model(os.path.join(ROOT, "tests", "models", "anl_falling.lua")).static()
    assert e.value.code < 0
    # the cart-pole hangs, its cart free on the rail (neutral): the sensors at rest as the CSV's
    cp = model("cartpole")
    summ, hdr, data = cli_analysis(tmp_path, "cartpole", "--analysis", "static")
    st = cp.static()
    assert st.stability == 0 and summ["stability"] == "neutral"
    for i, c in enumerate(cp.sensors):
        assert abs(st.outputs[i] - data[0, hdr.index("out." + c)]) <= 1e-12 * (1 + abs(st.outputs[i])), c
    assert abs(abs(st["theta"]) - math.pi) < 1e-9
