/* Two modules of one name in one file. */
#include <pallas/pallas.h>

PK_MODULE(m, kernel a(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[...]; } export a;)
PK_MODULE(m, kernel b(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[...]; } export b;)
