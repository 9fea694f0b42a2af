/* A line splice inside a token of a module. */
#include <pallas/pallas.h>

PK_MODULE(s, kernel k(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[.\
..]; } export k;)
