/* SPDX-License-Identifier: MIT */
/* mb_version.h - the project's version (runtime and mbgen share one number) and the version of
 * the model interface (the seam runtime/mb_model.h) that generated code implements.
 * Layer: shared by the runtime, generated code and mbgen (generator/mbgen.c reads its version
 * from here); freestanding, no includes. */
#ifndef MB_VERSION_H
#define MB_VERSION_H

#define MB_VERSION_MAJOR 0
#define MB_VERSION_MINOR 1
#define MB_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH", spelled from the three numbers above */
#define MB_VERSION_STR_(x) #x
#define MB_VERSION_XSTR_(x) MB_VERSION_STR_(x)
#define MB_VERSION_STRING \
    MB_VERSION_XSTR_(MB_VERSION_MAJOR) "." MB_VERSION_XSTR_(MB_VERSION_MINOR) "." \
    MB_VERSION_XSTR_(MB_VERSION_PATCH)
/* one integer for #if comparisons: 10000 MAJOR + 100 MINOR + PATCH */
#define MB_VERSION (MB_VERSION_MAJOR * 10000 + MB_VERSION_MINOR * 100 + MB_VERSION_PATCH)

/* The model interface: raised whenever struct mb_model, mb_plan or the meaning of a model
 * function changes (docs/model-interface.md). Every generated header records the interface it
 * was generated for and refuses, with #error, to compile against a runtime with another one. */
#define MB_MODEL_INTERFACE 29  /* 2: mb_index arrays, eval_kin_dyn, preset; 3: mb_plan pq_mv,
                                  pq_mtv; body_q (particles: 2 coordinates), nrod, rod_ends;
                                  4: tunables (npar, par, par_mass, par_check); 5: names, springs,
                                  rods and joints in mb_model_info (m->info); 6: mb_plan.f4, F4's
                                  unrolled kernels (mb_f4_kernels); 7: the sine cache argument
                                  of eval_kin and eval_kin_dyn (mb_trig.h); 8: inputs (nin,
                                  in_names, in) and sensors (nout, out_names, outputs); 9: the
                                  inputs' derivatives dforce_du, doutputs_du; 10: slots,
                                  gears and racks in mb_model_info; 11: contacts in
                                  mb_model_info; 12: cams in
                                  mb_model_info; 13: sensors of reactions (lam,
                                  doutputs_dlam); 14: switches (nswitch,
                                  switches); 15: eval_gamma_force;
                                  16: contact kind 4, a cam profile
                                  (mb_model_info.contact_geom); 17: units
                                  in mb_model_info; 18: s_assemble writes
                                  every entry, power; 19: the sine cache
                                  keeps the last angle's pair (6 nq); 20:
                                  eval_force_phi_q_dot; 21:
                                  mb_plan.f3; 22: mb_f3_kernels.factor;
                                  23: s_assemble takes Phi_q's constant
                                  +-1 entries as such (Pq: Phi_q's
                                  values); 24: mb_f4_kernels
                                  newton_rhs; 25: mb_f4_kernels
                                  factor; 26: mb_plan.pq
                                  (mb_pq_products: phiq_mv,
                                  phiq_x); 27: ldl and f3 factor
                                  leave the pivots' reciprocals
                                  in D; 28: ldl's qmax, its
                                  tol in [0, 1]; mb_pq_products
                                  s_factor, kkt_bv, kkt_bi; 29:
                                  scleronomic */

#endif /* MB_VERSION_H */
