/* PK_PP without a directive, and one that never closes. */
#include <pallas/pallas.h>

PK_MODULE(p,
    PK_PP(define N 8)
    kernel k(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[...]; }
    export k;
)
