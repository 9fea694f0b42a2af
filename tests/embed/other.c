/*
 * other.c - the second C file of tests/embed/multi.c's program: modules
 * in several C files of one program, each bound or compiled on its own.
 */
#include <pallas/pallas.h>

PK_MODULE(other_mod,
    kernel neg<N>(x: f32[N, 128], out y: f32[N, 128])
    grid (i: N / 8)
    blocks { x: [8, 128] at (i, 0); y: [8, 128] at (i, 0); }
    { y[...] = -x[...]; }
    export neg<16>;
)

const PallasSource *other_source(void);

const PallasSource *
other_source(void)
{
	return other_mod;
}
