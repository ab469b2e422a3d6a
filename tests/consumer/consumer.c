/* A C simulation loop calling the controller through the C API: a hot spot
 * drifts right, the reactive policy follows it, and rnn-zero (the residual GRU
 * with a zero head) makes the same decisions. Exits non-zero on any mismatch. */
#include <cellshift/controller.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S 64
#define P 4

static void rank_times(const int64_t* b, int t, double* out) {
    for (int p = 0; p < P; ++p) {
        out[p] = 0.0;
        for (int64_t s = b[p]; s < b[p + 1]; ++s) {
            double x = ((double)s + 0.5 - 10.0 - 0.5 * t) / 6.0;
            out[p] += 1.0 + 4.0 * exp(-x * x);
        }
    }
}

int main(void) {
    char err[256];
    cellshift_controller* reactive =
        cellshift_controller_create("reactive", NULL, NULL, S, P, 2, NULL, err, sizeof err);
    cellshift_controller* zero =
        cellshift_controller_create("rnn-zero", NULL, NULL, S, P, 2, NULL, err, sizeof err);
    if (!reactive || !zero) {
        fprintf(stderr, "create failed: %s\n", err);
        return 1;
    }
    int64_t a[P + 1] = {0, 16, 32, 48, 64}, b[P + 1];
    memcpy(b, a, sizeof a);
    int64_t moved = 0;
    for (int t = 0; t < 60; ++t) {
        double ta[P], tb[P];
        rank_times(a, t, ta);
        rank_times(b, t, tb);
        int64_t before = a[1] + a[2] + a[3];
        if (cellshift_controller_step(reactive, ta, NULL, NULL, 0.0, a, err, sizeof err) != 0 ||
            cellshift_controller_step(zero, tb, NULL, NULL, 0.0, b, err, sizeof err) != 0) {
            fprintf(stderr, "step failed: %s\n", err);
            return 1;
        }
        moved += llabs(a[1] + a[2] + a[3] - before);
        for (int k = 0; k <= P; ++k) {
            if (a[k] != b[k]) {
                fprintf(stderr, "event %d: rnn-zero differs from reactive\n", t);
                return 1;
            }
        }
        if (a[0] != 0 || a[P] != S) {
            fprintf(stderr, "domain not conserved\n");
            return 1;
        }
    }
    if (moved == 0) {
        fprintf(stderr, "the policy never moved\n");
        return 1;
    }
    /* Errors come back as one line, never as a crash. */
    double bad[P] = {1.0, NAN, 1.0, 1.0};
    if (cellshift_controller_step(reactive, bad, NULL, NULL, 0.0, a, err, sizeof err) == 0 ||
        strstr(err, "NaN") == NULL) {
        fprintf(stderr, "NaN time was not refused: '%s'\n", err);
        return 1;
    }
    if (cellshift_controller_create("magic", NULL, NULL, S, P, 2, NULL, err, sizeof err) != NULL ||
        strstr(err, "unknown policy 'magic'") == NULL) {
        fprintf(stderr, "unknown policy was not refused: '%s'\n", err);
        return 1;
    }
    if (cellshift_controller_create("reactive", NULL, NULL, 10, 4, 3, NULL, err, sizeof err) !=
            NULL ||
        strstr(err, "P * w_min > S") == NULL) {
        fprintf(stderr, "P * w_min > S was not refused: '%s'\n", err);
        return 1;
    }
    cellshift_controller_destroy(reactive);
    cellshift_controller_destroy(zero);
    printf("consumer_c: ok, reactive == rnn-zero over 60 events, %lld slices moved\n",
           (long long)moved);
    return 0;
}
