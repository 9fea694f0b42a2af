/* A semantic error in the second of two modules, the first fine. */
#include <pallas/pallas.h>

PK_MODULE(good, kernel k<N>(x: f32[N, 128], out y: f32[N, 128]) grid (i: N / 8) blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); } { y[...] = x[...]; } export k<16>;)

PK_MODULE(bad,
    kernel k<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    {
        y[...] = x[...] * scale;   /* no such name */
    }
    export k<16>;
)
