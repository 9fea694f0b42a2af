/*
 * key.h - what a module's program depends on, as bytes: the key of the
 * process's modules and of the disk cache (full), and the key pallasc
 * stores beside a program compiled ahead of time (not full: no file or
 * line, which differ between `cc dir/app.c` and `pallasc app.c`).
 */
#ifndef PALLAS_JIT_KEY_H
#define PALLAS_JIT_KEY_H

#include "pallas/module.h"
#include "util/util.h"

/* Appends the key to b: 0, or -1 out of memory (b freed). */
int jit_key(Buf *b, const PallasSource *src, const char *preset,
    const PallasModuleOptions *opt, int full);

#endif
