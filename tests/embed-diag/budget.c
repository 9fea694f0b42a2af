/* A check of the compiled path (sema's budget) inside a C file. */
#include <pallas/pallas.h>

PK_MODULE(big,
    kernel k<N>(x: f32[N, 65536], out y: f32[N, 65536])
    grid (i: N / 64)
    blocks { x: [64, 65536] at (i, 0); y: [64, 65536] at (i, 0); }
    { y[...] = x[...]; }
    export k<128>;
)
