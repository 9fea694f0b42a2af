/* A syntax error inside a PK_MODULE: named at the C file's line. */
#include <pallas/pallas.h>

PK_MODULE(bad,
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0) y: [8, 128] at (i, 0); }
    { y[...] = x[...]; }
    export k<16>;
)
