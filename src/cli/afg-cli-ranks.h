/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-writers.h"

G_BEGIN_DECLS

typedef struct {
  const char *output;     /* NULL: the current directory */
  AfgFormat   format;
  AfgWeight   weight;
  gboolean    kernels;    /* folded: the weight's kernel leaves, as for one DB */
  gboolean    has_steps;
  gint64      first_step;
  gint64      last_step;
  gboolean    quiet;
  gboolean    merge_addresses;
  gboolean    npu_idle;
  const char *job_root;   /* -f summary: `file` relative to it; NULL: as given */
} AfgCliRanksOptions;

/* --export of a job folder: OUT/rank{N}/flamegraph.* and OUT/ranks.json;
 * returns the exit status. */
int afg_cli_ranks_export (const char               *folder,
                          const AfgCliRanksOptions *opts);

/* --export -f summary of one DB: OUT/summary-rank{N}.json. */
int afg_cli_summary_export (const char               *db,
                            const AfgCliRanksOptions *opts);
/* --merge-summaries: OUT/ranks.json (and index.html) from the @files
 * (NULL-terminated) made with --export -f summary. */
int afg_cli_ranks_merge    (const char * const       *files,
                            const AfgCliRanksOptions *opts);

G_END_DECLS
