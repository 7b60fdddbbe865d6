/* mb_event.c - events (p.events): the contacts' gaps as event functions, and the model's
 * switches (step{}: mb_model.switches). After an accepted adaptive step of an explicit
 * formulation or of bdf, a gap whose sign changed between the step's ends (or, in a step past
 * its gaps' time to touch, between samples of its dense output: spell_inside) is located on the
 * step's dense output (Illinois, as SUNDIALS' IDARootfind) and the step is cut at the first
 * root: dopri5 and dop853 take the step again from its start to the root (f there starts the
 * next step: no FSAL reuse across the kink), bdf restarts from its Nordsieck polynomial's state
 * there (a new array of order 1; alf-trapezoid's q and p), so that no step straddles the kink of
 * the contact force. alf-trapezoid's trapezoid (fixed, Milne's, the extrapolated macro step)
 * locates inside its step, on the converged trial's cubic Hermite, and takes the step again to
 * the root (mbi_event_trial), and so do rk4 and hht (mb_sim.c). Switches are functions of time: every integrator's step ends just before
 * the next one and the run jumps it (mbi_switch_clip, mbi_switch_jump). Layer: runtime core
 * (mb_sim_impl.h), called by mb_sim.c and the trapezoid; no allocation. */
#include "mb_sim_impl.h"

/* A sensor is an event function when its name ends in ".gap": the contact element's gap
 * (docs/model-language.md; a sensor of the model file's own is an identifier, without a dot):
 * their count, and their indices into idx when given. No change of the model interface. */
int mb_event_sensors(const mb_model *m, int *idx)
{
    int ne = 0;
    if (!m || m->nout <= 0 || !m->out_names || !m->outputs) return 0;
    for (int k = 0; k < m->nout; k++) {
        const char *a = m->out_names[k];
        int len = 0;
        while (a && a[len]) len++;
        if (len > 4 && a[len - 4] == '.' && a[len - 3] == 'g' && a[len - 2] == 'a' && a[len - 1] == 'p') {
            if (idx) idx[ne] = k;
            ne++;
        }
    }
    return ne;
}

#if MBI_EVENTS

/* The workspace's vectors (mb_layout.h: evw, nout + nsw each, then a position): a vector of
 * event values holds the gaps [nev], then the switches [nsw] */
enum { EV_G0 = 0, EV_LO = 1, EV_HI = 2, EV_MID = 3, EV_Y = 4, EV_Q = 5 };
static mb_real *evv(const mb_sim *s, int which)
{
    return s->evw + (size_t)which * (size_t)(s->m->nout + s->nsw);
}

/* the gaps at (t, q) into g[nev] (the sensors at s->v: a gap depends on the positions only),
 * the switches at t into g[nev ..] */
void mbi_event_gaps(mb_sim *s, mb_real t, const mb_real *q, mb_real *g)
{
    const mb_model *m = s->m;
    if (s->nev) {
        mb_real *y = evv(s, EV_Y);
        m->outputs(m, t, q, s->v, y, NULL, NULL);
        for (int k = 0; k < s->nev; k++) g[k] = y[s->evk[k]];
    }
    if (s->nsw) m->switches(m, t, q, g + s->nev);
}

/* whether gap k is on the other side of contact (> 0 apart, <= 0 touching) in b than in a */
static int crossed(const mb_real *a, const mb_real *b, int k) { return (a[k] > 0) != (b[k] > 0); }

/* The trapezoid's trial step from t0 (q, v at its start in zk, yd: its restore point; rk4's and
 * hht's in zold, v0; the extrapolated macro step's in xs) to t1 (z, v): q at t by the cubic
 * Hermite through q and v at both ends (the trapezoid's own continuous
 * extension: q1 - q0 = h/2 (v0 + v1) makes its cubic term vanish), into q. */
static void trial_q(const mb_sim *s, mb_real t0, mb_real t1, mb_real t, mb_real *q)
{
    mb_real h = t1 - t0, th = (t - t0) / h;
    const mb_real *q0 = s->zk, *v0 = s->yd, *q1 = s->z, *v1 = s->v;
#if MBI_HAS_TN7
    /* rk4, hht: mb_sim_step's copies */
    if (s->p.integrator == MB_RK4 || s->p.integrator == MB_HHT) { q0 = s->zold; v0 = s->v0; }
#endif
#if MBI_F4A
    if (s->p.adaptive == 2) { q0 = s->xs; v0 = s->xs + s->nz; }   /* the macro step's start */
#endif
    for (int i = 0; i < s->n; i++) {
        mb_real a = q1[i] - q0[i], d0 = h * v0[i], d1 = h * v1[i];
        mb_real a2 = 3 * a - 2 * d0 - d1, a3 = d0 + d1 - 2 * a;
        q[i] = q0[i] + th * (d0 + th * (a2 + th * a3));
    }
}

/* the gaps at time t of the last step, from its dense output (trial: of the trapezoid's trial
 * step from t0 to t1, trial_q) */
static int gaps_at(mb_sim *s, mb_real t, mb_real *g, int trial, mb_real t0, mb_real t1)
{
    mb_real *q = evv(s, EV_Q);
    if (trial) trial_q(s, t0, t1, t, q);
    else {
        int st = mb_sim_dense(s, t, q, NULL, NULL);
        if (st) return st;
    }
    mbi_event_gaps(s, t, q, g);
    return MB_OK;
}

/* The first root in (t0, t1] of the gaps that crossed (glo at t0, ghi at t1): Illinois on the
 * dense output (IDARootfind's rules: the secant of the function whose root comes first, the
 * weight of a stuck end halved or doubled, the trial kept ttol/2 inside the bracket) until the
 * bracket is below ttol = 100 eps (|t1| + |t1 - t0|); *tr its right end (the new side). */
static int locate(mb_sim *s, mb_real t0, mb_real t1, mb_real *tr, int trial)
{
    mb_real *glo = evv(s, EV_LO), *ghi = evv(s, EV_HI), *gm = evv(s, EV_MID);
    mb_real tlo = t0, thi = t1, alph = 1;
    mb_real ttol = 100 * MB_EPS * (MB_FABS(t1) + MB_FABS(t1 - t0));
    int side = 0, st;
    for (int it = 0; it < 200 && thi - tlo > ttol; it++) {
        int imax = -1;
        mb_real best = -1;
        for (int k = 0; k < s->nev; k++)
            if (crossed(glo, ghi, k)) {
                mb_real d = ghi[k] - alph * glo[k];
                mb_real r = d != 0 ? MB_FABS(ghi[k] / d) : 0;
                if (r > best) { best = r; imax = k; }
            }
        if (imax < 0) break;               /* (cannot happen: the bracket keeps a crossing) */
        mb_real d = ghi[imax] - alph * glo[imax];
        mb_real tm = d != 0 ? thi - (thi - tlo) * ghi[imax] / d : (tlo + thi) / 2;
        if (!(tm - tlo >= ttol / 2)) {
            mb_real fi = (thi - tlo) / ttol;
            tm = tlo + (fi > 5 ? MB_R(0.1) : MB_R(0.5) / fi) * (thi - tlo);
        }
        if (!(thi - tm >= ttol / 2)) {
            mb_real fi = (thi - tlo) / ttol;
            tm = thi - (fi > 5 ? MB_R(0.1) : MB_R(0.5) / fi) * (thi - tlo);
        }
        if ((st = gaps_at(s, tm, gm, trial, t0, t1))) return st;
        int left = 0, prev = side;
        for (int k = 0; k < s->nev; k++) left |= crossed(glo, gm, k);
        if (left) { thi = tm; copy(s->nev, ghi, gm); side = 1; }
        else { tlo = tm; copy(s->nev, glo, gm); side = 2; }
        alph = side == prev ? (side == 2 ? alph * 2 : alph * MB_R(0.5)) : 1;
    }
    *tr = thi;
    return MB_OK;
}

/* bdf: the step cut at tr: the state from its Nordsieck polynomial (mbi_bdf_state_at; F4: q
 * and p), the integrator's start-up there (f, v, sigma, lambda: F4's from the ALF velocity
 * iteration, warm-started at the step's end as a switch's jump; the next step finds its array
 * stale and restarts it at order 1), the monitors at tr (the work interpolated, the maxima
 * those before the step and at tr). */
static int cut_dense(mb_sim *s, const mbi_integ *ig, const mbi_step0 *b, mb_real tr)
{
    mb_monitor mo;
    mb_real t1 = s->t, pnc, pdrv;
    int st = mb_sim_dense(s, tr, evv(s, EV_Q), NULL, &mo);
    if (st) return st;
#if MBI_BDF
    mbi_bdf_state_at(s, tr);
#endif
    if (s->p.formulation == MB_ALF_TRAPEZOID) {   /* F4's start-up iteration's warm start */
        copy(s->n, s->ev_v, s->v);
        copy(s->nc, s->ev_sig, s->sig);
    }
    s->t = tr;
    s->ev_cut = 1;                         /* the dense output still spans the whole step */
    s->ev_t1 = t1;
    if ((st = ig->start(s, tr))) return st;
    mbi_measure(s, &pnc, &pdrv);
    s->mon.W = mo.W;
    s->mon.max_energy_dev = b->mon0.max_energy_dev;
    s->mon.max_phi = b->mon0.max_phi;
    s->mon.max_phid = b->mon0.max_phid;
    s->mon.max_sigma = b->mon0.max_sigma;
    s->mon.escale = b->mon0.escale;
    s->mon.pscale = b->mon0.pscale;
    {   /* the sums over the step (bdf's accuracy estimate, float's drift) for its part up to
         * tr alone: the redo from tr adds the rest again (a linear share: the step's own
         * increments are not kept) */
        mb_real f = t1 > b->t_start ? (tr - b->t_start) / (t1 - b->t_start) : 0;
        (void)f;
#if MBI_ACC
        s->mon.err_sum = b->mon0.err_sum + f * (s->mon.err_sum - b->mon0.err_sum);
        s->mon.err_vel = b->mon0.err_vel + f * (s->mon.err_vel - b->mon0.err_vel);
#endif
#if MB_FLOAT
        s->mon.drift = b->mon0.drift + f * (s->mon.drift - b->mon0.drift);
#endif
    }
    mbi_update_max(s);
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(s->nc, s->ptq, s->Phit);
    return MB_OK;
}

/* dopri5, dop853: the step taken again from its start, to tr (its trial step tr - t0; a
 * rejection takes a shorter one, and the root is then found again in a later step). Not the
 * dense output's state: the interpolant of a step across the kink is only as good as the
 * step's error estimate, and a restart from it keeps that error (dop853 on the bouncing ball:
 * an apex error floor of 7.6e-9 from rtol 1e-9 on). The discarded step's evaluations and
 * rejections stay counted. */
static int cut_redo(mb_sim *s, const mbi_integ *ig, const mbi_step0 *b, mb_real tr)
{
    long evals = s->mon.evals, rejected = s->mon.rejected, events = s->mon.events;
#if MBI_GE
    mb_real ge = s->mon.err_sum;           /* the accuracy companion's comparison at the step's
                                            * start (mb_rk.c, ge_step): kept, it is not redone */
#endif
    s->mon = b->mon0;
    s->mon.evals = evals;
    s->mon.rejected = rejected;
    s->mon.events = events;
#if MBI_GE
    s->mon.err_sum = ge;
#endif
    s->pnc = b->pnc0;
    s->pdrv = b->pdrv0;
    ig->undo(s, b->t_start, MB_OK);
    int st = ig->restart(s, s->t);         /* f at the step's start again */
    if (st) return st;
    /* the redo's drivers' work by parts (mb_rk.c, step_adaptive) starts from S and Phi_t at the
     * step's start: the restart's (mbi_form_restart also puts Phi_t's copy ptq, which the
     * monitor moved to the discarded end, back). S0 is not the start's after a sigma reset at
     * the discarded end (mbi_sigma_reset lowers it with S) and, on alf-explicit, not the
     * restart's bits (its sigma iteration starts warm). With S0 at the discarded end, every cut
     * added (S_end - S_start)^T Phi_t to W: valve_jump's canonical dop853 at rtol 1e-7
     * max_energy_dev 9.4e-3 J against 9.4e-6 without events. */
    copy(s->nc, s->S0, s->S);
    s->h_next = tr - s->t;
    return ig->step_adaptive(s, tr, b);
}

/* The fixed trapezoid's shortest piece of a cut step, as a fraction of the step (the rest of
 * a cut step goes to the grid point, however short; step control picks its own next step,
 * and its retaken step is kept as before: the bouncing ball at rtol 1e-4 lost 2x of its apex
 * accuracy without the cuts near an end): its velocity
 * v1 = 2 (q1 - q0) / h - v0 turns the round-off of q into an error of v (and so of Phidot,
 * and of sigma~ by alpha c: the drivers' work) that grows as 1 / h. The Geneva drive
 * (alpha 1e4, h = 1e-4) cut a step 5.4e-10 s before its grid point: |Phidot| 5e-8 and a spike
 * of 2.1e-3 J in energy_dev (18 % of its energy scale, against 1.9e-5 J without events), gone
 * the next step. A root closer than this to either end of the step is counted and the step
 * kept whole: across a kink of the force at theta h the trapezoid's error goes as
 * theta (1 - theta), so a root this near an end costs at most 0.36 of the worst case (0.09
 * against 1/4), and the cut pieces' round-off is at most 10 times the plain step's. */
#define EV_TRAP_SLIVER MB_R(0.1)

/* The trapezoid (alf-trapezoid: its fixed step, Milne's step control and the extrapolated
 * macro step), rk4 and hht locate inside their step: a trial from t0 to t1 (the trapezoid's
 * converged, not yet accepted; the macro step's extrapolated; rk4's and hht's taken, their start
 * kept for the undo) whose gaps changed sign has its first root located on the
 * trial's cubic Hermite through q and v at both ends (trial_q), and the step is taken again
 * from its start to the root (mb_trapezoid.c, mb_trapezoid_control.c, mb_sim.c): 1 and *tr
 * then. Not in a step that starts at a cut (its root already within the retaken step's
 * accuracy), nor, in the fixed trapezoid, at a root within EV_TRAP_SLIVER of its ends. */
int mbi_event_trial(mb_sim *s, mb_real t0, mb_real t1, mb_real *tr)
{
    mb_real *g0 = evv(s, EV_G0), *g1 = evv(s, EV_HI);
    int any = 0;
    if (!s->nev || t0 == s->ev_tlast) return 0;
    mbi_event_gaps(s, t1, s->z, g1);
    for (int k = 0; k < s->nev; k++) any |= crossed(g0, g1, k);
    if (!any) return 0;
    copy(s->nev, evv(s, EV_LO), g0);
    *tr = t1;
    if (locate(s, t0, t1, tr, 1) < 0) return 0;
    if (!(*tr > t0 && *tr < t1)) return 0;
    mb_real piece = EV_TRAP_SLIVER * (t1 - t0);
    if (s->p.integrator != MB_TRAPEZOID || MB_PARAMS_ADAPTIVE(&s->p) ||
        (*tr - t0 >= piece && t1 - *tr >= piece)) return 1;
    /* the fixed trapezoid, a root within a sliver of an end: counted, the step kept whole, its
     * end the gaps' new reference (mbi_event_step sees no crossing; the next step locates) */
    s->mon.events++;
    mbi_event_gaps(s, t1, s->z, g1);
    copy(s->nev, g0, g1);
    return 0;
}

/* the step retaken to the root tr was accepted there */
void mbi_event_trial_cut(mb_sim *s, mb_real tr)
{
    s->ev_tlast = tr;
    s->mon.events++;
}

/* mb_sim_step's undo of a step (near a singular position, or energies that overflow), the state
 * back at the step's start s->t: the events' state the start's too. A step cut at a root (bdf's
 * cut_dense, dopri5's and dop853's cut_redo, rk4's and hht's retaken step) left ev_tlast at the
 * root and the gaps compared against (EV_G0) at the cut, on the far side of that crossing: the
 * run going on from the start then saw no sign change there and missed the event (valve_jump
 * canonical bdf and dopri5: 121 and 95 cuts to 0.2 s against 122 and 96 of the run that never
 * took the step). The gaps are those at the start's state again (a function of t, q and v,
 * which the undo put back bit for bit: the values the step started from; one evaluation per
 * undo, none per step); the counters are the monitor's, which the undo restores. */
void mbi_event_undo(mb_sim *s, const mbi_step0 *b)
{
    s->ev_tlast = b->ev_tlast0;
    if (s->nev || s->nsw) mbi_event_gaps(s, s->t, s->z, evv(s, EV_G0));
}

/* the formulation and integrator locate inside their steps (mbi_event_trial) */
static int trial_locates(const mb_sim *s)
{
    return (s->p.formulation == MB_ALF_TRAPEZOID && s->p.integrator == MB_TRAPEZOID) ||
           (MBI_HAS_TN7 && (s->p.integrator == MB_RK4 || s->p.integrator == MB_HHT));
}

/* how far past the touch at the present rate mbi_contact_hmax lets a step go: dopri5's and
 * dop853's stages sample the step inside, bdf and the trapezoid evaluate its end only */
static mb_real contact_reach(const mb_sim *s)
{
    return s->p.integrator == MB_DOPRI5 || s->p.integrator == MB_DOP853 ? 2 : 1;
}

/* A step past the time its nearest open gap takes to close at the rate it had at the step's
 * start (mbi_contact_hmax lets dopri5 and dop853 go to twice that) may have passed a whole
 * contact spell: every gap on the same side at both ends, closed between them. The error
 * estimate does not always see it: the Geneva drive's canonical dop853 at rtol 1e-7 took one
 * step of 0.345 s from t = 0.890 (the pin's linear time to touch 0.266 s) whose stages missed
 * the engagement (err 0.036): on its dense output the pin was up to 4.5 mm inside a slot's
 * flank from 1.127 to 1.21 s, the wheel never turned, and the drivers' work put 381 J into
 * energy_dev. So such a step has its gaps sampled on the dense output at 15 inner points;
 * the first sample with a gap on the other side than at the start brackets a root with the
 * sample before it (*ta, *tb; their gaps in EV_LO, EV_HI): 1, else 0 (also when there is no
 * dense output). */
#define EV_SPELL_SAMPLES 16
static int spell_inside(mb_sim *s, const mbi_step0 *b, mb_real *ta, mb_real *tb)
{
    mb_real t0 = b->t_start, t1 = s->t, h = t1 - t0;
    if (!(s->ev_hmax > 0) || !(h * contact_reach(s) > s->ev_hmax)) return 0;
    mb_real *g0 = evv(s, EV_G0), *glo = evv(s, EV_LO), *ghi = evv(s, EV_HI), *gm = evv(s, EV_MID);
    mb_real tp = t0;
    copy(s->nev, glo, g0);
    for (int j = 1; j < EV_SPELL_SAMPLES; j++) {
        mb_real tm = t0 + h * (mb_real)j / EV_SPELL_SAMPLES;
        int any = 0;
        if (gaps_at(s, tm, gm, 0, t0, t1)) return 0;
        for (int k = 0; k < s->nev; k++) any |= crossed(g0, gm, k);
        if (any) {
            copy(s->nev, ghi, gm);
            *ta = tp;
            *tb = tm;
            return 1;
        }
        copy(s->nev, glo, gm);
        tp = tm;
    }
    return 0;
}

int mbi_event_step(mb_sim *s, const mbi_integ *ig, const mbi_step0 *b)
{
    mb_real *g0 = evv(s, EV_G0), *g1 = evv(s, EV_HI);
    int any = 0, st, ne = s->nev + s->nsw;
    mbi_event_gaps(s, s->t, s->z, g1);
    /* a switch inside the step (the step went past the horizon mb_sim_step looked to, or an
     * argument with two roots in it): counted as an onset */
    for (int k = s->nev; k < ne; k++) s->mon.onsets += crossed(g0, g1, k);
    /* the trapezoid: a step that ended at a located root, or started at one */
    if (trial_locates(s) && (s->t == s->ev_tlast || b->t_start == s->ev_tlast)) {
        copy(ne, g0, g1);
        return MB_OK;
    }
    for (int k = 0; k < s->nev; k++) any |= crossed(g0, g1, k);
    int locatable = MB_PARAMS_ADAPTIVE(&s->p) &&
                    (s->p.formulation != MB_ALF_TRAPEZOID || s->p.integrator == MB_BDF);
    /* a step from a cut whose root the redone step left just before it: taken as it is (the
     * root within the redo's accuracy; no second cut a few ulps on) */
    if (any && locatable && b->t_start == s->ev_tlast) {
        copy(s->nev, g0, g1);
        return MB_OK;
    }
    /* a step that may have passed a whole contact spell: the first root inside it (the
     * bracket from the dense output's samples) */
    mb_real ta = b->t_start, tb = s->t;
    int inner = !any && locatable && b->t_start != s->ev_tlast && s->ngap &&
                spell_inside(s, b, &ta, &tb);
    if ((any || inner) && locatable) {
        mb_real tr = tb;
        if (!inner) copy(s->nev, evv(s, EV_LO), g0);
        if ((st = locate(s, ta, tb, &tr, 0))) return st;
        s->mon.events++;
        if (tr < s->t) {                   /* (a root at the step's end needs no cut) */
            st = s->p.integrator == MB_BDF ? cut_dense(s, ig, b, tr) : cut_redo(s, ig, b, tr);
            if (st < 0) return st;
            mbi_event_gaps(s, s->t, s->z, g1);
        }
        /* a redo that fell short of tr (its trial step rejected) leaves the root to a later
         * step, which locates it again */
        if (s->t == tr) s->ev_tlast = tr;
        else s->mon.events--;
        copy(ne, g0, g1);
        return MB_OK;
    }
    for (int k = 0; k < s->nev; k++)
        if (g0[k] > 0 && !(g1[k] > 0)) s->mon.onsets++;
    copy(ne, g0, g1);
    return MB_OK;
}

/* ------------------------------------------------------------------ the contacts' step limit
 * An adaptive step sees a contact only through the states it evaluates: the trapezoid and bdf
 * at the step's end alone, the Runge-Kutta methods at a few stages. Where a contact is open at
 * both ends of a step, with its closed spell between them, neither the error estimate nor the
 * events (a sign change between the ends) notice it, and the step goes on as if the bodies had
 * passed through each other (the Geneva drive: bdf and the trapezoid stepped over every
 * engagement of the pin in 8 to 11 steps, the wheel never turned). So no adaptive step may be
 * longer than the time an open gap takes to close at its present rate, g / (-dg/dt) (twice
 * that for dopri5 and dop853; never below the difference's interval d): a step then ends open,
 * short of the touch, or past it with the gap's sign changed (located with events; resolved
 * by error control either way). The rate is the gap's change along the velocity, a difference
 * over d, a sixteenth of the coming trial step (positions only: the model gives gaps, not
 * their derivatives, through the sensors); a closed or opening gap sets no limit, and none of
 * a model without contacts. */

/* the trial step the integrator will take (mbi_switch_horizon's), t_stop - t when unknown */
static mb_real next_trial(const mb_sim *s, mb_real t_stop)
{
    mb_real h = s->h_next, rem = t_stop - s->t;
#if MBI_HAS_BDF
    if (s->p.integrator == MB_BDF && s->bok) h = s->bh;
#endif
    if (s->p.h_max > 0 && (!(h > 0) || h > s->p.h_max)) h = s->p.h_max;
    return h > 0 && h < rem ? h : rem;
}

mb_real mbi_contact_hmax(mb_sim *s, mb_real t_stop)
{
    const mb_model *m = s->m;
    mb_real *y0 = evv(s, EV_Y), *y1 = evv(s, EV_MID), *q = evv(s, EV_Q);
    mb_real d = next_trial(s, t_stop) / 16, lim = 0;
    /* gaps and closings at the round-off of the positions are noise, not a contact about to
     * close (the pin entering its slot tangentially has a gap of 1e-17 m for a while, and a
     * limit from it would hold the step near that) */
    mb_real tiny = 64 * MB_EPS * s->mon.lscale;
    /* bdf and the trapezoid evaluate the step's end only: a step to the touch at the present
     * rate (at twice it the trapezoid stepped over the Geneva's engagements again from 4x).
     * dopri5's and dop853's stages sample the step inside (c = 0.2 .. 1): twice that (to the
     * touch, the approach's last step ended a few ulps before or after it, and dop853's apex
     * error on the bouncing ball with events fell as rtol^0.54; 0.84 at twice, 0.79 without
     * the limit) */
    mb_real reach = contact_reach(s);
    if (!(d > 0)) return 0;
    for (int i = 0; i < s->n; i++) q[i] = s->z[i] + d * s->v[i];
    m->outputs(m, s->t, s->z, s->v, y0, NULL, NULL);
    m->outputs(m, s->t, q, s->v, y1, NULL, NULL);
    for (int j = 0; j < s->ngap; j++) {
        mb_real g = y0[s->evk[j]], dg = g - y1[s->evk[j]];   /* the closing over d */
        if (g > tiny && dg > tiny) {
            mb_real h = reach * g / dg * d;
            if (!(lim > 0) || h < lim) lim = h;
        }
    }
    /* not below d: a gap about to close (the walker's foot at 3.8e-13 m, closing at 0.03 m/s)
     * would ask for a step the trapezoid cannot take (1e-11 s: its Newton iteration failed in
     * round-off); a step to d passes the touch by less than a sixteenth of the trial step, and
     * the sign change is then seen */
    return lim > 0 && lim < d ? d : lim;
}

/* ------------------------------------------------------------------ switches
 * A load or driver that jumps at a time (step{}, heaviside(): mb_model.switches, of time only).
 * A step across the jump (or ending on it: the value there is already the new one) integrates a
 * discontinuity its rule assumes smooth, and every integrator drops to first order. So no step
 * sees both sides: mb_sim_step ends the step just before the switch (every stage time on the
 * old side) and the run jumps over it, by at most 2 ttol (a few ulps of t: the state held, the
 * integrator started again on the new side: f there, bdf at order 1, the trapezoid's predictor
 * history dropped). Fixed steps then end on their grid again. */

/* How far the next adaptive step may reach: the step size the integrator will try (its trial
 * shrinks on rejection, never grows), within h_max; t_stop when unknown. */
mb_real mbi_switch_horizon(const mb_sim *s, mb_real t_stop)
{
    mb_real h = s->h_next;
#if MBI_HAS_BDF
    if (s->p.integrator == MB_BDF && s->bok) h = s->bh;
#endif
    mb_real hm = mbi_h_max(s);
    if (hm > 0 && (!(h > 0) || h > hm)) h = hm;
    return h > 0 && s->t + h < t_stop ? s->t + h : t_stop;
}

/* switch k's value at t (the other switches' into the scratch vector too) */
static mb_real switch_at(mb_sim *s, mb_real t, int k)
{
    mb_real *g = evv(s, EV_MID) + s->nev;
    s->m->switches(s->m, t, s->z, g);
    return g[k];
}

int mbi_switch_clip(mb_sim *s, const mbi_integ *ig, mb_real t_end, mb_real *te, mb_real *tj)
{
    mb_real *g0 = evv(s, EV_G0) + s->nev, *g1 = evv(s, EV_HI) + s->nev;
    mb_real t0 = s->t;
    if (!(t_end > t0)) return 0;
    /* at the step's start too: an input or a tunable set since the last step moves switches */
    s->m->switches(s->m, t0, s->z, g0);
    s->m->switches(s->m, t_end, s->z, g1);
    /* a few ulps of t: the stage times t + c h of a step ending ttol before the bracket stay
     * on the old side (they round by an ulp or two) */
    mb_real ttol = 8 * MB_EPS * (MB_FABS(t_end) + MB_FABS(t_end - t0));
    mb_real ta = t0, tb = t_end;
    int found = 0, st;
    for (int k = 0; k < s->nsw; k++) {
        if ((g0[k] > 0) == (g1[k] > 0)) continue;
        /* Illinois on switch k alone (a function of time: no state to interpolate), then
         * bisection if it is slow; [a, b] keeps g(a) on t0's side */
        mb_real a = t0, fa = g0[k], b = t_end, fb = g1[k];
        int side = 0, old = g0[k] > 0;
        for (int it = 0; it < 200 && b - a > ttol; it++) {
            mb_real c = it < 40 && fb != fa ? b - fb * (b - a) / (fb - fa) : a + (b - a) / 2;
            if (!(c - a >= ttol / 2)) c = a + ttol / 2;
            if (!(b - c >= ttol / 2)) c = b - ttol / 2;
            mb_real fc = switch_at(s, c, k);
            if ((fc > 0) == old) { a = c; fa = fc; if (side == 1) fb *= MB_R(0.5); side = 1; }
            else { b = c; fb = fc; if (side == -1) fa *= MB_R(0.5); side = -1; }
        }
        if (!found || b < tb) { ta = a; tb = b; found = 1; }
    }
    if (!found) return 0;
    *tj = t_end - tb <= ttol ? t_end : tb;
    *te = ta - ttol;
    if (*te > t0) return 1;
    /* the switch closer than a step: jumped now */
    if ((st = mbi_switch_jump(s, ig, *tj)) < 0) return st;
    return 2;
}

int mbi_switch_jump(mb_sim *s, const mbi_integ *ig, mb_real tj)
{
    mb_real pnc, pdrv, t1 = s->t;
    int st;
    copy(s->n, s->ev_v, s->v);             /* the start-up evaluation's warm start */
    copy(s->nc, s->ev_sig, s->sig);
    s->t = tj;
    if ((st = ig->start(s, tj))) return st;
    s->nhist = 0;                          /* F4: no predictor history across the jump */
    s->kin_fresh = 0;
#if MBI_HAS_F4A
    s->nqh = 0;
#endif
    s->ev_cut = 1;                         /* the dense output spans the step to t1 */
    s->ev_t1 = t1;
    mbi_measure(s, &pnc, &pdrv);           /* the loads' powers on the new side */
    mbi_update_max(s);
    s->pnc = pnc;
    s->pdrv = pdrv;
    copy(s->nc, s->ptq, s->Phit);
    s->mon.events++;
    mbi_event_gaps(s, tj, s->z, evv(s, EV_G0));
    return MB_OK;
}
#endif
