/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-int-map.h"
#include "afg-transform-list.h"
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
  AfgTransformList      *transforms;  /* what made it from a built tree, or NULL */
  struct _AfgCallTable  *calls;       /* a transformed tree's calls, for its durations */
};

/* A kernel leaf and the node it is under. */
typedef struct {
  AfgNpuKernel kernel;
  guint32      node;
} AfgNodeKernel;

/* Adds @kernel's figures, named @name, to the leaf of its kind and @name
 * under @node in @leaves (AfgNodeKernel), made on first use: @at indexes
 * @leaves by (node, kind, name). Leaves of frames merged into one node
 * add up so. */
void     afg_node_kernels_add (GArray              *leaves,
                               AfgIntMap           *at,
                               guint32              node,
                               const AfgNpuKernel  *kernel,
                               guint32              name);

/* Gives @tree its kernel leaves: @kernels (one per node, kind and name,
 * their figures summed) are sorted by their node's place in @tree
 * (@new_index[node], or node itself when @new_index is NULL), then kind,
 * then name in byte order. */
void     afg_tree_set_kernels (AfgTree             *tree,
                               AfgNodeKernel       *kernels,
                               gsize                n,
                               const guint32       *new_index);

AfgTree *afg_tree_new (AfgDocument    *document,
                       const AfgScope *scope,
                       AfgTreeFlags    flags);

/* Columns of n_nodes values each, for the caller to fill, those of
 * @columns (bits by AfgColumn), in one block: a tree's columns together fill whole huge
 * pages (afg-huge.h) where each alone would fault in 4 kB pages. Once
 * per tree. */
void     afg_tree_alloc_columns (AfgTree   *tree,
                                 guint32    columns);

/* The calls behind a transformed tree's durations (afg-call-table.h);
 * NULL for a tree whose calls are where its document's rows nest. */
static inline struct _AfgCallTable *
_afg_tree_get_calls (const AfgTree *tree)
{
  return tree->calls;
}

G_END_DECLS
