/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "afg-test-db.h"

G_BEGIN_DECLS

typedef void (*AfgHostileChildSetup) (gpointer data);

/* One run of the CLI on a hostile input. */
typedef struct {
  int    status;      /* raw wait status */
  char  *out;
  char  *err;
  double seconds;
} AfgHostileRun;

void        afg_hostile_run_clear    (AfgHostileRun        *run);
/* Runs AFG_EXE with @args (LC_ALL=C, cwd "/"); @setup runs in the child. */
void        afg_hostile_spawn        (const char * const   *args,
                                      AfgHostileChildSetup  setup,
                                      AfgHostileRun        *run);
/* Exports @db to @out_dir (-f json), asserting that the directory
 * holding @db is byte-for-byte, mtime for mtime the same afterwards.
 * Returns the exit code; the run must not die of a signal. */
int         afg_hostile_export       (const char           *db,
                                      const char           *out_dir,
                                      AfgHostileRun        *run);
/* The CLI's one-line error: "ascend-flamegraph: error: DB: …REASON…",
 * optionally followed by one hint line, nothing else. */
void        afg_hostile_assert_error (const AfgHostileRun  *run,
                                      const char           *db,
                                      const char           *reason);
void        afg_hostile_assert_empty_dir (const char       *dir);
/* Exports @db as JSON, asserts success and returns the parsed document
 * (on failure, one with empty stats and no threads). */
JsonNode   *afg_hostile_export_json  (const char           *db);
/* -1 when absent. */
gint64      afg_hostile_stat         (JsonNode             *root,
                                      const char           *name);
/* A copy of a sample DB in a fresh temporary directory. */
char       *afg_hostile_sample_copy  (const char           *sample,
                                      gssize                length);
const char *afg_hostile_sample       (const char           *sample);
/* DIR/ascend_pytorch_profiler_big.db from tools/afg-gen-db (AFG_GEN_DB);
 * @dir NULL: a new temporary directory. */
char       *afg_hostile_generate_db  (const char           *dir,
                                      const char           *rows);

/* A file of @size bytes that takes no disk space. */
void        afg_hostile_make_sparse  (const char           *path,
                                      gint64                size);

G_END_DECLS
