/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"
#include "afg-writers.h"

G_BEGIN_DECLS

/* The kernel leaves of every frame of a tree summed by kind and name. */
typedef struct {
  guint32 name;        /* string index */
  guint32 kind;        /* AfgTaskKind: compute or communication */
  guint64 count;
  gint64  ns;
  gint64  exposed_ns;
  gint64  value;       /* in the weight the rows were made for */
} AfgKernelRow;

/* The rows of @tree's leaves of @weight's kind (compute: compute tasks;
 * comm and exposed: collectives; host and npu: every leaf), zero-length
 * ones too, valued by afg_weight_kernel_value() (host and npu: their ns),
 * most first, ties by kind, then name in byte order. An array of
 * AfgKernelRow; empty for a tree without NPU data. */
GArray *afg_kernel_rows_new (const AfgTree *tree,
                             AfgWeight      weight);

G_END_DECLS
