/* A C file with no PK_MODULE: a warning, not an error. */
#include <pallas/pallas.h>

int main(void) { return 0; }
