/* bench_simbody.cpp - a peer on the same mechanisms: Simbody (Debian's libsimbody-dev) against
 * our generated model, one model and size per program (our model is linked in through
 * bench_simbody_ours.c, compiled with -DOURS_MODEL=<name>_model).
 *
 * The mechanisms, built with Simbody's public API from the data of our model files:
 *   chain N                (models/chain.lua -D N=N): N bars of L = 0.1 m, m = 0.1 kg,
 *                          J = m L^2 / 12, pinned in series to the ground point (0, 0); a tree
 *                          of N Pin mobilizers, no constraints.
 *   parallelogram_chain N  (models/parallelogram_chain.lua -D N=N, IFToMM A02): 2N + 1 bars of
 *                          L = 1 m, m = 1 kg; cranks 0..N pinned to the ground at (i, 0),
 *                          coupler i pinned to the tip of crank i - 1 (a tree of 2N + 1 Pin
 *                          mobilizers), and each loop closed at the tip of crank i by two
 *                          Constraint::PointInPlane (coupler i's end B in the planes x_B = L/2
 *                          and y_B = 0 of crank i's frame): 2 equations per loop, as our
 *                          revolute, without the redundant out-of-plane equation that a
 *                          Constraint::Ball would add.
 * Gravity 9.81 m/s^2 along -y; every body frame at the body's mass centre with its x axis along
 * the bar, as in our models, so a body's (x, y, phi) are its origin and angle in both.
 *
 * What is compared: one evaluation of the accelerations from a state. Simbody: realize(State,
 * Stage::Acceleration) after a change of q (kinematics, gravity, the constraint multipliers
 * and udot); ours: the baumgarte right-hand side f = [v; a] (generated functions and the
 * KKT solve on the model's plan), called directly as rk4 calls it.
 *
 * Check first: at the model's assembled start and at a moving state, positions and velocities
 * of every body, then both sides' accelerations (Simbody's body accelerations against our
 * exact index-1 accelerations and our baumgarte right-hand side); exit status 1 when they
 * differ by more than CHECK_TOL relative, so no timing is reported for a mismatch.
 *
 * usage: bench_simbody chain|parallelogram_chain N [--instr simbody|ours CALLS]
 * Prints "check ..." lines and one "peer MODEL N ..." line (scripts/bench_scaling.sh reads it).
 * Not a test: timings never fail anything. */
#include <Simbody.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "bench_simbody_ours.h"

using namespace SimTK;

static const double CHECK_TOL = 1e-9;   /* largest relative difference of the accelerations */
static const int NREP = 9;              /* side-by-side measurements: medians and spreads */
static volatile double sink;            /* keeps results alive */

/* CPU time of the whole process: counts any thread a library might start (neither side does
 * here), and not the time the shared machine gives other jobs. */
static double now()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median(std::vector<double> x, double *spread)
{
    std::sort(x.begin(), x.end());
    size_t n = x.size();
    double med = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    *spread = med > 0 ? (x[n - 1] - x[0]) / med : 0;
    return med;
}

/* One body of the tree: its parent ("" = ground), the pin's point on the parent (in the
 * parent's frame, or ground's) and on the body (in its own frame). */
struct BodySpec {
    std::string name, parent;
    Vec3 on_parent, on_body;
    double mass, len;
};

struct Peer {
    MultibodySystem sys;
    SimbodyMatterSubsystem matter;
    GeneralForceSubsystem forces;
    std::vector<BodySpec> spec;            /* in creation order (parents first) */
    std::vector<MobilizedBody> mob;        /* the same order */
    std::map<std::string, int> index;      /* body name -> position in spec */
    int nclosure = 0;                      /* constraint equations */
    Peer() : matter(sys), forces(sys) {}

    void add(const BodySpec &b)
    {
        /* a uniform bar along x: J = m L^2 / 12 about z (the only moment planar motion uses);
         * about y the same, about x none: a valid inertia (triangle inequalities hold) */
        double J = b.mass * b.len * b.len / 12;
        Body::Rigid body(MassProperties(b.mass, Vec3(0), Inertia(0, J, J)));
        MobilizedBody &parent = b.parent.empty() ? matter.updGround() : mob[index.at(b.parent)];
        index[b.name] = (int)spec.size();
        spec.push_back(b);
        mob.push_back(MobilizedBody::Pin(parent, Transform(b.on_parent), body, Transform(b.on_body)));
    }
};

/* models/chain.lua -D N=n */
static void build_chain(Peer &p, int n)
{
    const double L = 0.1, m = 0.1;
    for (int i = 1; i <= n; i++)
        p.add({ "link" + std::to_string(i), i == 1 ? "" : "link" + std::to_string(i - 1),
                i == 1 ? Vec3(0) : Vec3(L / 2, 0, 0), Vec3(-L / 2, 0, 0), m, L });
}

/* models/parallelogram_chain.lua -D N=n */
static void build_parallelogram_chain(Peer &p, int n)
{
    const double L = 1.0, m = 1.0;
    for (int i = 0; i <= n; i++)
        p.add({ "crank" + std::to_string(i), "", Vec3(i * L, 0, 0), Vec3(-L / 2, 0, 0), m, L });
    for (int i = 1; i <= n; i++)
        p.add({ "coupler" + std::to_string(i), "crank" + std::to_string(i - 1), Vec3(L / 2, 0, 0),
                Vec3(-L / 2, 0, 0), m, L });
    for (int i = 1; i <= n; i++) {   /* the loop closure: coupler i's B on crank i's B */
        MobilizedBody &crank = p.mob[p.index.at("crank" + std::to_string(i))];
        MobilizedBody &coupler = p.mob[p.index.at("coupler" + std::to_string(i))];
        Constraint::PointInPlane(crank, UnitVec3(1, 0, 0), L / 2, coupler, Vec3(L / 2, 0, 0));
        Constraint::PointInPlane(crank, UnitVec3(0, 1, 0), 0, coupler, Vec3(L / 2, 0, 0));
        p.nclosure += 2;
    }
}

/* our body b <-> Simbody's: ob[b] is the spec index of our body b */
struct Map {
    std::vector<int> ob;
};

/* Our absolute state (q, v: x, y, phi per body) -> Simbody's pin angles and rates */
static void to_simbody(const Peer &p, const Map &mp, const double *q, const double *v, State &s)
{
    int nb = (int)mp.ob.size();
    std::vector<double> phi(p.spec.size()), om(p.spec.size());
    for (int b = 0; b < nb; b++) {
        phi[mp.ob[b]] = q[3 * b + 2];
        om[mp.ob[b]] = v[3 * b + 2];
    }
    for (size_t k = 0; k < p.spec.size(); k++) {
        double pp = 0, po = 0;
        if (!p.spec[k].parent.empty()) {
            int j = p.index.at(p.spec[k].parent);
            pp = phi[j];
            po = om[j];
        }
        p.mob[k].setOneQ(s, 0, phi[k] - pp);
        p.mob[k].setOneU(s, 0, om[k] - po);
    }
}

/* Simbody's realized positions and velocities -> our absolute state */
static void from_simbody(const Peer &p, const Map &mp, const State &s, double *q, double *v)
{
    for (size_t b = 0; b < mp.ob.size(); b++) {
        const MobilizedBody &mb = p.mob[mp.ob[b]];
        const Vec3 &r = mb.getBodyOriginLocation(s), &rd = mb.getBodyOriginVelocity(s);
        const UnitVec3 &ex = mb.getBodyRotation(s).x();   /* the body's x axis in ground */
        q[3 * b] = r[0];
        q[3 * b + 1] = r[1];
        q[3 * b + 2] = std::atan2(ex[1], ex[0]);
        v[3 * b] = rd[0];
        v[3 * b + 1] = rd[1];
        v[3 * b + 2] = mb.getBodyAngularVelocity(s)[2];
    }
}

static double angle_diff(double a, double b)
{
    double d = std::fmod(a - b, 2 * Pi);
    if (d > Pi) d -= 2 * Pi;
    if (d < -Pi) d += 2 * Pi;
    return std::fabs(d);
}

/* Compare both sides at our state (q, v); prints one check line, returns 0 when they agree. */
static int check_state(const char *what, Peer &p, const Map &mp, State &s, ours *o,
                       const double *q, const double *v)
{
    int nb = (int)mp.ob.size(), n = 3 * nb;
    to_simbody(p, mp, q, v, s);
    p.sys.realize(s, Stage::Acceleration);
    double dpos = 0, dvel = 0;
    std::vector<double> qs(n), vs(n), acc(n), z(2 * n), f(2 * n);
    from_simbody(p, mp, s, qs.data(), vs.data());
    for (int i = 0; i < n; i++) {
        dpos = std::max(dpos, i % 3 == 2 ? angle_diff(qs[i], q[i]) : std::fabs(qs[i] - q[i]));
        dvel = std::max(dvel, std::fabs(vs[i] - v[i]));
    }
    if (ours_acc(o, q, v, acc.data()) != 0) {
        std::printf("check %s: our exact accelerations failed\n", what);
        return 1;
    }
    std::copy(q, q + n, z.begin());
    std::copy(v, v + n, z.begin() + n);
    if (ours_rhs(o, z.data(), f.data()) != 0) {
        std::printf("check %s: our baumgarte right-hand side failed\n", what);
        return 1;
    }
    double amax = 0, dexact = 0, drhs = 0;
    for (int b = 0; b < nb; b++) {
        const MobilizedBody &mb = p.mob[mp.ob[b]];
        const Vec3 &a = mb.getBodyOriginAcceleration(s);
        double sa[3] = { a[0], a[1], mb.getBodyAngularAcceleration(s)[2] };
        for (int k = 0; k < 3; k++) {
            amax = std::max(amax, std::fabs(sa[k]));
            dexact = std::max(dexact, std::fabs(sa[k] - acc[3 * b + k]));
            drhs = std::max(drhs, std::fabs(sa[k] - f[n + 3 * b + k]));
        }
    }
    double qerr = p.matter.getNQErr(s) ? max(abs(s.getQErr())) : 0.0;
    double rel = std::max(dexact, drhs) / std::max(amax, 1e-300);
    std::printf("check %s: |pos| diff %.1e, |vel| diff %.1e, Simbody's closure error %.1e; "
                "accelerations max %.3g, diff exact %.1e, diff baumgarte rhs %.1e, relative %.1e: %s\n",
                what, dpos, dvel, qerr, amax, dexact, drhs, rel, rel <= CHECK_TOL ? "agree" : "DIFFER");
    return !(rel <= CHECK_TOL && dpos <= 1e-12 * (1 + nb) && dvel <= 1e-10 * (1 + nb));
}

/* A moving state made on Simbody's side (pin angles and rates; on the parallelogram chain's
 * one-degree-of-freedom branch the cranks turn together and the couplers translate), read
 * back as our absolute state. */
static void moving_state(Peer &p, const Map &mp, State &s, bool loops, double *q, double *v)
{
    for (size_t k = 0; k < p.spec.size(); k++) {
        double a, w;
        if (!loops) {
            a = 0.4 * std::sin(1.3 * (double)k + 0.5);
            w = 0.7 * std::cos(0.9 * (double)k);
        } else if (p.spec[k].parent.empty()) {   /* a crank */
            a = Pi / 2 - 0.7;
            w = -1.3;
        } else {                                  /* a coupler, relative to its crank */
            a = -(Pi / 2 - 0.7);
            w = 1.3;
        }
        p.mob[k].setOneQ(s, 0, a);
        p.mob[k].setOneU(s, 0, w);
    }
    p.sys.realize(s, Stage::Velocity);
    from_simbody(p, mp, s, q, v);
}

/* `calls` evaluations on each side, every coordinate changed a little before each (a realized
 * stage is cached until the state changes; ours keeps each angle's last sine and cosine,
 * runtime/mb_trig.h, so a change of one coordinate would leave the others' pairs kept) */
extern "C" __attribute__((noinline)) void bs_simbody_calls(MultibodySystem *sys, State *s, long calls)
{
    for (long i = 0; i < calls; i++) {
        Vector &q = s->updQ();
        for (int k = 0; k < q.size(); k++) q[k] += 1e-12;
        sys->realize(*s, Stage::Acceleration);
        sink += s->getUDot()[0];
    }
}

extern "C" __attribute__((noinline)) void bs_ours_calls(ours *o, double *z, double *f, int n, long calls)
{
    for (long i = 0; i < calls; i++) {
        for (int k = 0; k < n; k++) z[k] += 1e-12;
        if (ours_rhs(o, z, f) != 0) {
            std::fprintf(stderr, "bench_simbody: our right-hand side failed\n");
            std::exit(1);
        }
        sink += f[n];
    }
}

int main(int argc, char **argv)
{
    bool usage = argc != 3 && argc != 6;
    const char *kind = argc > 1 ? argv[1] : "";
    int nloop = argc > 2 ? std::atoi(argv[2]) : 0;
    bool loops = std::strcmp(kind, "parallelogram_chain") == 0;
    if (!loops && std::strcmp(kind, "chain") != 0) usage = true;
    if (nloop < 1) usage = true;
    const char *instr_side = nullptr;
    long instr_calls = 0;
    if (argc == 6) {
        instr_side = argv[4];
        instr_calls = std::atol(argv[5]);
        if (std::strcmp(argv[3], "--instr") != 0 || instr_calls < 1 ||
            (std::strcmp(instr_side, "simbody") != 0 && std::strcmp(instr_side, "ours") != 0))
            usage = true;
    }
    bool help = argc == 2 && (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"));
    if (usage) {
        std::fprintf(help ? stdout : stderr,
                     "usage: bench_simbody chain|parallelogram_chain N [--instr simbody|ours CALLS]\n"
                     "  Simbody against the generated model linked in (make bench-scaling): checks that\n"
                     "  both give the same accelerations, then times both; --instr: CALLS evaluations\n"
                     "  of one side only (for callgrind)\n");
        return help ? 0 : 2;
    }

    ours *o = ours_open();
    if (!o) return 1;
    Peer p;
    if (loops) build_parallelogram_chain(p, nloop);
    else build_chain(p, nloop);
    Force::Gravity(p.forces, p.matter, Vec3(0, -9.81, 0));
    State s = p.sys.realizeTopology();
    p.sys.realizeModel(s);

    int nb = ours_nbody(o), n = 3 * nb;
    Map mp;
    if (nb != (int)p.spec.size()) {
        std::fprintf(stderr, "bench_simbody: %s has %d bodies, Simbody's %s %d has %zu\n",
                     ours_name(o), nb, kind, nloop, p.spec.size());
        return 1;
    }
    for (int b = 0; b < nb; b++) {
        auto it = p.index.find(ours_body_name(o, b));
        if (it == p.index.end()) {
            std::fprintf(stderr, "bench_simbody: %s's body %s is not in Simbody's %s\n", ours_name(o),
                         ours_body_name(o, b), kind);
            return 1;
        }
        mp.ob.push_back(it->second);
    }

    /* the physics first */
    std::vector<double> q(ours_start_q(o), ours_start_q(o) + n), v(ours_start_v(o), ours_start_v(o) + n);
    int bad = check_state("start", p, mp, s, o, q.data(), v.data());
    std::vector<double> qm(n), vm(n);
    moving_state(p, mp, s, loops, qm.data(), vm.data());
    bad |= check_state("moving", p, mp, s, o, qm.data(), vm.data());
    if (bad) {
        std::printf("peer %s %d differ\n", kind, nloop);
        return 1;
    }

    /* timing (or counting) at the assembled start, both sides from the same state */
    std::vector<double> z(2 * n), f(2 * n);
    std::copy(q.begin(), q.end(), z.begin());
    std::copy(v.begin(), v.end(), z.begin() + n);
    to_simbody(p, mp, q.data(), v.data(), s);
    if (instr_side) {   /* for callgrind --toggle-collect=bs_<side>_calls */
        if (instr_side[0] == 's') bs_simbody_calls(&p.sys, &s, instr_calls);
        else bs_ours_calls(o, z.data(), f.data(), n, instr_calls);
        std::printf("instr %s %d %s %ld\n", kind, nloop, instr_side, instr_calls);
        ours_close(o);
        return 0;
    }
    /* calibrate each side: about 20 ms per measurement (after a warm-up of both) */
    bs_ours_calls(o, z.data(), f.data(), n, 10);
    bs_simbody_calls(&p.sys, &s, 10);
    long calls_o = 4, calls_s = 4;
    for (;;) {
        double t0 = now();
        bs_ours_calls(o, z.data(), f.data(), n, calls_o);
        if (now() - t0 > 2e-2 || calls_o >= (1L << 24)) break;
        calls_o *= 2;
    }
    for (;;) {
        double t0 = now();
        bs_simbody_calls(&p.sys, &s, calls_s);
        if (now() - t0 > 2e-2 || calls_s >= (1L << 24)) break;
        calls_s *= 2;
    }
    std::vector<double> to(NREP), ts(NREP), ratio(NREP);
    for (int r = 0; r < NREP; r++) {   /* side by side, alternating */
        double t0 = now();
        bs_ours_calls(o, z.data(), f.data(), n, calls_o);
        double t1 = now();
        bs_simbody_calls(&p.sys, &s, calls_s);
        double t2 = now();
        to[r] = (t1 - t0) * 1e9 / (double)calls_o;
        ts[r] = (t2 - t1) * 1e9 / (double)calls_s;
        ratio[r] = ts[r] / to[r];
    }
    double so, ss, sr;
    double mo = median(to, &so), ms = median(ts, &ss), mr = median(ratio, &sr);
    /* peer MODEL N ours_ns spread simbody_ns spread simbody/ours spread ours_calls simbody_calls
     * mobilities constraint_equations */
    std::printf("peer %s %d %.1f %.3f %.1f %.3f %.4f %.3f %ld %ld %d %d\n", kind, nloop, mo, so, ms, ss,
                mr, sr, calls_o, calls_s, p.matter.getNumMobilities(), p.nclosure);
    ours_close(o);
    return sink == 12345.0;   /* practically never; keeps the compiler honest */
}
