/*
 * pallas.h - the public header of pallas-c.  Programs that link compiled
 * kernels or embed them in C (module.h) include this (pkg-config
 * --cflags pallas).
 */
#ifndef PALLAS_PALLAS_H
#define PALLAS_PALLAS_H

#include "runtime.h"
#include "module.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of libpallasrt, e.g. "0.1.0". */
const char *pallas_version(void);

#ifdef __cplusplus
}
#endif

#endif
