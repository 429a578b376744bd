/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An input's bytes written as a profiler DB in a private directory (on
 * /dev/shm when there is one), removed at exit: the bytes after
 * AFG_FUZZ_WAL_MARK, when present, become its -wal file, so that the
 * private-copy path of afg-source.c is fuzzed too. Returns the DB's path. */
#define AFG_FUZZ_WAL_MARK "AFG-WAL:"

const char *afg_fuzz_write_input (const guint8 *data,
                                  gsize         size);

G_END_DECLS
