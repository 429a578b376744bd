/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-tree.h"

G_BEGIN_DECLS

struct _AfgTree {
  AfgDocument *document;
  AfgScope     scope;
  AfgTreeFlags flags;
  AfgStats     stats;
  AfgNode     *nodes;
  guint        n_nodes;
  gint64      *columns[AFG_N_COLUMNS];
  gint64      *column_block;   /* the columns afg_tree_alloc_columns() made, */
  guint32      block_columns;  /* as bits by AfgColumn */
  AfgThread   *threads;
  guint        n_threads;
  guint32      first_frame;  /* nodes below it are the root and the threads */
  AfgNpuKernel *kernels;      /* node by node, with NPU data */
  guint32     *kernel_first;  /* n_nodes + 1: node i's are kernel_first[i] … [i + 1] */
};

AfgTree *afg_tree_new (AfgDocument    *document,
                       const AfgScope *scope,
                       AfgTreeFlags    flags);

/* Columns of n_nodes values each, for the caller to fill, those of
 * @columns (bits by AfgColumn), in one block: a tree's columns together fill whole huge
 * pages (afg-huge.h) where each alone would fault in 4 kB pages. Once
 * per tree. */
void     afg_tree_alloc_columns (AfgTree   *tree,
                                 guint32    columns);

G_END_DECLS
