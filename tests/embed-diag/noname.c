/* PK_MODULE without a module name, and with a name that is no C name. */
#include <pallas/pallas.h>

PK_MODULE(kernel k(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[...]; })
PK_MODULE(2fast, kernel k(x: f32[8, 128], out y: f32[8, 128]) { y[...] = x[...]; })
