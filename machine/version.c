/*
 * version.c - the runtime library's version, for programs that link it.
 */
#include "config.h"
#include "pallas/pallas.h"

const char *
pallas_version(void)
{
	return PACKAGE_VERSION;
}
