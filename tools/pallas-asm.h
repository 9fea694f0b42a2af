/*
 * pallas-asm.h - shared by the files of the pallas-asm tool.
 */
#ifndef PALLAS_TOOLS_PALLAS_ASM_H
#define PALLAS_TOOLS_PALLAS_ASM_H

#include <stddef.h>

#include "machine/machine.h"

enum { PA_OK = 0, PA_USER = 1, PA_USAGE = 2, PA_INTERNAL = 70 };

/* Prints "pallas-asm: error: <fmt with arg>" and a hint; returns PA_USAGE. */
int pa_usage(const char *fmt, const char *arg);
/* Reads a whole file ('-' = stdin) into a malloc'd NUL-terminated buffer. */
int pa_read(const char *path, char **buf, size_t *len);
/* Reads an image or assembles a source file; reports errors to stderr. */
int pa_load(const char *path, const char *preset, MachProgram **out);
/* pallas-asm run ... (pallas-asm-run.c) */
int pa_run(int argc, char **argv);

#endif
