/* A '#' line inside a PK_MODULE is C's directive, not the kernel's. */
#include <pallas/pallas.h>

PK_MODULE(d,
#define N 16
    kernel k(x: f32[N, 128], out y: f32[N, 128])
    { y[...] = x[...]; }
    export k;
)
