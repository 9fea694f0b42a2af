/* A PK_MODULE with no kernel text. */
#include <pallas/pallas.h>

PK_MODULE(nothing, )
