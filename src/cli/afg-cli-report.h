/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-diff-shape.h"
#include "afg-writers.h"

G_BEGIN_DECLS

#define AFG_CLI_PROG "ascend-flamegraph"

enum {
  AFG_EXIT_OK = 0,
  AFG_EXIT_BAD_INPUT = 1,
  AFG_EXIT_USAGE = 2,
  AFG_EXIT_WRITE_FAILED = 3,
};

/* `PROG: error: MESSAGE` and, when @hint is set, `PROG: hint: HINT`. */
void afg_cli_print_error         (const char        *message,
                                  const char        *hint);
/* `WHO: warning: MESSAGE`. */
void afg_cli_print_warning       (const char        *who,
                                  const char        *message);
/* A load, scope or build error of @document (NULL when it did not
 * load) as error and hint lines; returns the exit status. */
int  afg_cli_report_build_error  (const GError      *error,
                                  const AfgDocument *document);
/* An export that failed: a file error hints at -o, any other is
 * reported as afg_cli_report_build_error(); returns the exit status. */
int  afg_cli_report_export_error (const GError      *error,
                                  const AfgDocument *document);
/* The export's warnings about @tree (rows skipped, empty, no NPU), each
 * line led by @who ("ascend-flamegraph", or that and the side of a diff). */
void afg_cli_print_warnings      (const char        *who,
                                  const AfgTree     *tree,
                                  AfgWeight          weight);
/* The same warnings kept to be printed later (a job's ranks are read on
 * several threads and reported in rank order). */
GPtrArray *afg_cli_tree_warnings (const AfgTree     *tree,
                                  AfgWeight          weight);
/* What the transforms of @list made of @base, the tree before them, into
 * @transformed: each one that named no frame of the tree it was applied
 * to (@named, from afg_tree_transform_named()), and why @transformed has
 * no frame when it has none (the transforms, or @base itself). Printed
 * with afg_cli_print_warning_list(). */
GPtrArray *afg_cli_transform_warnings (const AfgTree          *base,
                                       const AfgTransformList *list,
                                       const gboolean         *named,
                                       const AfgTree          *transformed);
/* Not a rank: -1 is one (a DB whose rank is unknown). */
#define AFG_CLI_NO_RANK G_MININT
/* @warnings (NULL: none) as afg_cli_print_warnings() prints them, each
 * message after "rank @rank: " unless @rank is AFG_CLI_NO_RANK. */
void afg_cli_print_warning_list  (const char        *who,
                                  int                rank,
                                  GPtrArray         *warnings);
/* One DB's export: what was read and skipped, the time it took, the
 * file written, then the device time by kind and over the timeline. */
void afg_cli_print_tree_summary  (const AfgTree     *tree,
                                  double             seconds,
                                  const char        *out_path);
/* A diff's export: the frames of each side and those only in one. */
void afg_cli_print_diff_summary  (AfgDiffShape      *diff,
                                  double             seconds,
                                  const char        *out_path);

G_END_DECLS
