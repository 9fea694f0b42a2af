/* PK_PP(#include) of a file that does not exist, relative to this file. */
#include <pallas/pallas.h>

PK_MODULE(inc,
    PK_PP(#include "no-such-file.pk")
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = x[...]; }
    export k<16>;
)
