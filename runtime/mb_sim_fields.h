/* mb_sim_fields.h - the members of the simulation object, struct mb_sim: included twice, as the
 * body of the runtime's struct mb_sim (mb_sim_impl.h) and as the body of mb_sim_storage (mb_sim.h),
 * the opaque storage an application allocates, so that both have one member list and one layout
 * under every switch of mb_config.h (mb_sim.c checks their size and alignment). Not API: the
 * members are the runtime's, read only by its own files and white-box tests. No include guard.
 * All arrays point into the caller's workspace. */
const mb_model *m;       /* the model, or mloc when it has tunables */
int n, nc, nz;           /* (the fields in an order without padding on a 32-bit target) */
#if MB_WITH_TUNABLES
mb_model mloc;           /* models with tunables: the descriptor with par (and mass) here */
#endif
mb_params p;
mb_real t, h_next;       /* time, next trial step (adaptive) */
mb_real h_prev;          /* the last accepted step, of h_prev (dopri5/dop853's dense output;
                            F4's AB2 predictor and step control) */
#if MBI_HAS_EB
mb_real t_prev;          /* ... from t_prev (dense output) */
int dense_state;         /* p.dense: 0 no step to interpolate, 1 stages kept, 2 coefficients, 3 the same, dop853 on its cubic Hermite (mb_rk.c, dense_choose) */
int have_f;              /* f at the current state is cached in fz */
int stab_run;            /* rk4: bits 0-2, whether the stages of the last three steps saw a
                            rate beyond the stability limit (mb_rk.c, stiffness) */
mb_real stab_rate;       /* the stabilization's fastest rate, 1/s (explicit formulations) */
mb_real dn_W0;           /* p.dense: W at the last step's start */
#endif
#if MBI_HAS_EV
int nev;                 /* p.events: the event functions (the gaps among the sensors) */
int nsw;                 /* p.events: the model's switches (mb_model.switches), 0 without */
int ev_on;               /* nev + nsw > 0 */
int ev_offgrid;          /* a fixed-step run jumped a switch or cut a step at a gap: the next
                            step ends on the grid from off it (its h the rest to the point) */
int ev_fixed, ev_lastplan; /* the step before a switch (mb_sim_step): fixed, and its last */
mb_real ev_te, ev_tj, ev_tplan; /* its end (before the switch), the jump's target (after
                            it), the grid point it was heading for */
int ev_cut;              /* the last step was cut at an event: its dense output spans to ev_t1 */
int ngap;                /* the gaps among the sensors (evk's first ngap): p.events or an
                            adaptive run (the contacts' step limit, mbi_contact_hmax) */
mb_real ev_t1;           /* the cut step's end as the integrator took it */
mb_real ev_tlast;        /* the time of the last cut (no second cut in the step from it) */
mb_real ev_hmax;         /* the contacts' step limit of this adaptive step, 0: none */
mb_real *evw;            /* [5 (nout + nsw) + nq] the gaps and switches at the current
                            state, the root finder's brackets and trial values, the sensors'
                            scratch, a position */
int *evk;                /* [nout + nsw] the sensors' indices of the event functions */
#endif
#if MBI_HAS_KKT
mb_real step_ratio;      /* F1, F2: smallest pivot ratio of S in the current step, 1 if none */
int step_row;            /* its constraint row (-1: unknown) */
#endif
mb_real t_grid0;         /* fixed steps land on t_grid0 + k h */
int nnz;
int energy_armed;        /* the energy warning is tested (mb_monitor.c) */
#if MB_FLOAT
unsigned char auto_alpha, auto_tol; /* p.alpha, p.tol were 0, chosen at reset (mb_sim.c) */
mb_real tol0;            /* auto_tol: the reset's tol */
#endif
long nfixed;             /* fixed steps taken since reset */
int ready;               /* reset succeeded */
int fact_valid;          /* F4: FA holds a factorization of this step's Newton matrix */
int reuse_wait;          /* F4 newton_reuse: steps left on full Newton after a slow one */
int reuse_slow;          /* F4: this trial step's kept matrix contracted slowly */
int kin_fresh;           /* F4: Phi, Phit, Pq hold the values at (kin_t, z), the step's last
                            Newton evaluation (the monitor then needs no evaluation); 2: and
                            kin_e the energies at (kin_t, z, v) (the trapezoid's check) */
mb_real kin_t;
mb_real kin_e[3];
int nhist;               /* F4: 1 when ydp holds [v; pdot] one accepted step back (AB2;
                            that step's size is h_prev) */
#if MBI_HAS_F4A
int nqh;                 /* F4 adaptive: accepted positions held in qh1, qh2 (0..2) */
mb_real h_prev2;         /* F4 adaptive: the step before h_prev */
mb_real td_t0, td_W0, td_P0;   /* F4 adaptive: the last accepted step's start, W and P_nc
                            there, for mb_sim_dense (td_t0 == t: no step to interpolate) */
#endif
mb_monitor mon;
mb_real pnc, pdrv;       /* P_nc and driver power at the current state (trapezoid rule) */
/* arrays in the workspace (layout: mb_layout.h); NULL when the formulation has no use; left
 * out with what the build does not compile (mb_config.h) */
mb_real *z, *v, *pd, *sig, *S, *lam, *ptq;
mb_real *ev_v, *ev_sig, *ev_S, *ev_lam;
mb_real *Pq, *Pqd, *dQq, *dQv;
mb_real *Phi, *Phit, *Gam, *Q, *cv;
mb_real *tn[MBI_HAS_FJ ? 7 : 5], *tm[3];
mb_real *S0;             /* S at the step's start (mb_sim_step): the work's reference, undo */
#if MBI_HAS_TN7
mb_real *v0;             /* v at the step's start (mb_sim_step): F1-F3's undo, hht's restore */
#endif
mb_real *zk, *yd, *ydp;
mb_real *FS, *FA;        /* plan storage of S and of the n x n matrix (mb_model.h) */
mb_real *lsd, *lsy;      /* linear-system scratch, max(n, nc) each */
mb_real *Ek, *Dk;        /* F4: alpha (Phi_q - h/2 Phidot_q) and c1 Phi_q + h/2 Phidot_q;
                            F3: alpha Phi_q in Ek */
#if MBI_HAS_EB
mb_real *fz, *ztmp, *zold;   /* f at z; the explicit integrators' and bdf's state scratch */
#endif
#if MBI_HAS_EXPL
mb_real *k[12];          /* the explicit integrators' stages (k[0] is fz) */
mb_real *dn;             /* p.dense: the continuous extension of the last step (mb_rk.c) */
mb_real *kp;             /* adaptive: the power of the loads (P_nc, F1's drivers) per stage */
mb_real *dn_w;           /* p.dense: the continuous extension's coefficients of their work */
#endif
#if MBI_HAS_GE
mb_real *gz;             /* dopri5, dop853 with warn_accuracy: the companion's state, f at it and
                            the evaluation's saved ev_v, ev_sig (between comparisons: the sigma
                            of the run's last sigma reset) (2 nz + n + nc; mb_rk.c) */
mb_real ge_t, ge_tm, ge_tlast; /* the companion's time, the run's after the first of its two
                            steps and after its last accepted step */
int ge_n;                /* accepted steps since ge_t (-1: start the companion anew; -2: a
                            new run, its estimate cleared too: mb_rk.c, ge_sync) */
long ge_resets;          /* mon.sigma_resets (the trapezoid's: plus mon.events) when it started
                            (dopri5's, dop853's: or took the run's sigma reset, ge_shift) */
mb_real ge_e, ge_off;    /* dopri5's, dop853's: its last estimate since it started anew, and
                            those it had when it started anew at a sigma reset, summed (in
                            tolerances: mb_rk.c, ge_sync) */
#endif
#if MBI_HAS_F4A
mb_real *qh1, *qh2;      /* F4 adaptive: positions one and two accepted steps back */
mb_real *tacc;           /* the step control (adaptive 1) with warn_accuracy: its accuracy
                            estimate's signed sums and scratch (mb_trapezoid_control.c,
                            trap_acc) */
mb_real tacc_h;          /* the step of its last estimate from three positions (0: none) */
mb_real *xs, *xa, *xib;  /* F4 extrapolated (adaptive 2): the macro step's start, the H/2
                            sequence's end, trap_step's Int Phi base and Phi_t at the
                            macro step's start */
mb_real xw;              /* its last step's work of loads and drivers, extrapolated */
#endif
#if MBI_HAS_XGE
mb_real *xg;             /* with warn_accuracy: the accuracy companion's state as xs holds the
                            start's, then the run's Phi_t while it runs (mb_trapezoid_control.c,
                            xge_step) */
mb_real xg_hp;           /* its predictor's last substep (h_prev) */
int xg_nh;               /* and whether it has a history (nhist) */
mb_real xg_d0;           /* the run's energy_dev at the companion's time ge_t (xge_step) */
long xg_ev;              /* mon.events at its last comparison or start (xge_cut) */
mb_real xg_e, xg_off;    /* its last estimate, and those it had when it started anew but at a
                            start, summed (in tolerances: xge_sync) */
#endif
#if MBI_HAS_KKT
mb_real *minv;           /* 1 / mass (F1, F2: the Schur complement's weights) */
#endif
#if MBI_HAS_SCR
mb_real *scr;            /* dense: the reference back end's matrix; F4 full_jacobian's K1, K2 */
#endif
#if MBI_HAS_PIV
int *piv;                /* dense back end's pivots */
#endif
#if MBI_HAS_FJ
mb_real *kb;             /* F4 full_jacobian: Phi_q values at a perturbed q */
#endif
#if MBI_HAS_HHT
mb_real *hr;             /* hht: Phi_q^T lambda - Q at the current state (the HHT average) */
#endif
#if MBI_HAS_TRIG
mb_real *trig;           /* [6 nq] the fused evaluations' sine cache, an entry [x0, sin x0,
                            cos x0, x, sin x, cos x] per coordinate (runtime/mb_trig.h);
                            emptied by mb_sim_reset */
#endif
#if MBI_HAS_TUN
mb_real *rx;             /* sensors of reactions (mb_model.doutputs_dlam): mb_sim_get_output's
                            solve for the multipliers (mb_input.c; mb_layout.h MB_L_RX) */
mb_real *par;            /* [npar] the tunables' current values (mloc.par) */
mb_real *pmass;          /* [nq] M's diagonal at par when the model's par_mass is set */
mb_real *hold;           /* [3 nin] the inputs' holds {value, slope, t_set} (mloc.in) */
mb_real *inq;            /* [2 nq] when nin > 0: Q before and after mb_sim_set_input */
#endif
#if MBI_HAS_BDF
/* bdf (mb_bdf.c): the Nordsieck array (6 vectors of nz: h^j y^(j) / j!), the correction e
 * of this and of the last step, scratch f, d, the error weights, the Jacobian df/dz and the
 * Newton matrix I - gamma df/dz (dense nz x nz, LU in place), its pivots */
mb_real *bz, *be, *bep, *bf, *bd, *bw, *bJ, *bM;
mb_real *bacc;           /* [2 nq] the accuracy warning's signed error vectors, the
                            positions' and the velocities' (F2, F4: the momenta's) so far
                            (mb_bdf.c, acc_step) */
mb_real *bsv;            /* [nq + nc] F1-F3: the dense output's copy of ev_v, ev_sig
                            (mb_bdf.c, bdf_dense) */
int *bpiv;
int bq, bwait, bok, bjac_ok, bfact_ok, bep_ok; /* order; steps before a change; Nordsieck
                            array valid; Jacobian and factorization current; bep usable */
int bimp;                /* the formulation is implicit (F4): its equations in [q; p] by its
                            row's Newton pieces, Int Phi and sigma~ beside the array */
long bjac_age;           /* accepted steps since the Jacobian was evaluated */
mb_real bh, bt, bgam, bcrate; /* step of the array, its time, gamma of the factorization,
                                 Newton's convergence-rate estimate */
#endif
