/* cellshift controller: C API.
 *
 * Any MPI code with a 1-D slab decomposition can call a cellshift balancing
 * policy once per rebalancing event (on one rank), from C, C++ or Fortran
 * (through iso_c_binding): plain arrays in and out, no C++ types, no exceptions.
 *
 *   char err[256];
 *   cellshift_controller* c = cellshift_controller_create(
 *       "rnn", "default.h5", NULL, S, P, w_min, NULL, err, sizeof err);
 *   if (!c) { fprintf(stderr, "%s\n", err); ... }
 *   every K steps:
 *       cellshift_controller_step(c, rank_times, NULL, NULL, phase, boundaries, err, sizeof err);
 *   cellshift_controller_destroy(c);
 *
 * Boundaries are P+1 integers b[0] = 0 < ... < b[P] = S; rank p owns slices
 * [b[p], b[p+1]). Errors return NULL or -1 and write one line into `error`.
 */
#ifndef CELLSHIFT_CONTROLLER_H
#define CELLSHIFT_CONTROLLER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cellshift_controller cellshift_controller;

/* policy:          a registered policy name ("rnn", "reactive", "holt", ...)
 * controller_file: the HDF5 controller for "rnn"; NULL otherwise
 * params:          overrides "name=value,name=value" (e.g. "alpha=0.5"), or NULL
 * initial:         P+1 initial boundaries, or NULL for equal widths
 * Returns NULL on error (unknown policy, bad file, P * w_min > S, ...).
 * The controller file is read in the calling process: the library never forks (the
 * command-line tools first validate a file in a child, a guard against HDF5 crashing
 * on corrupt files, which is unsafe inside an MPI rank). Pass files you trust. */
cellshift_controller* cellshift_controller_create(const char* policy, const char* controller_file,
                                                  const char* params, int64_t slices, int64_t ranks,
                                                  int64_t w_min, const int64_t* initial,
                                                  char* error, size_t error_size);

/* One rebalancing event. rank_times[P]: each rank's time since the last event.
 * slice_workload[S] and growth_events[S] may be NULL (forecast policies and an rnn
 * with the 16 forecast features need the former). Writes the new boundaries to
 * boundaries_out[P+1]; returns 0, or -1 on error (NaN or negative times, missing
 * estimates) leaving the state as it was. */
int cellshift_controller_step(cellshift_controller* controller, const double* rank_times,
                              const double* slice_workload, const double* growth_events,
                              double cycle_phase, int64_t* boundaries_out, char* error,
                              size_t error_size);

/* Starts over from `boundaries` (P+1, or NULL for equal widths): clears the
 * policy's memory (GRU hidden states, forecasts). Returns 0 or -1. */
int cellshift_controller_reset(cellshift_controller* controller, const int64_t* boundaries,
                               char* error, size_t error_size);

/* The host's costs (docs/runtime.md), which the learned controller reads: mu, the
 * time to move one unit of load in units of its compute time over one rebalancing
 * interval (default 0.0075, a CPU cluster at 100 steps per event), and kappa, the
 * fixed cost of an event that moves anything as a fraction of the mean rank time
 * (default 0). Both finite and >= 0; returns 0 or -1. */
int cellshift_controller_set_costs(cellshift_controller* controller, double migration_cost,
                                   double rebalance_cost, char* error, size_t error_size);

/* How many rebalancing intervals the run has left, the one the next step's
 * boundaries govern included (its total steps over the rebalancing interval, if set
 * before the first step); every step counts it down, down to 1. 0, the default: not
 * known. The learned controller then makes no move that cannot repay its migration
 * before the run ends. Returns 0, or -1 for a negative count. */
int cellshift_controller_set_intervals_left(cellshift_controller* controller, int64_t intervals,
                                            char* error, size_t error_size);
/* Interior boundaries whose move w_min shortened at the last step. */
int64_t cellshift_controller_limited(const cellshift_controller* controller);

void cellshift_controller_destroy(cellshift_controller* controller);

#ifdef __cplusplus
}
#endif

#endif /* CELLSHIFT_CONTROLLER_H */
