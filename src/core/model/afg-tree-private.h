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
  AfgThread   *threads;
  guint        n_threads;
  guint32      first_frame;  /* nodes below it are the root and the threads */
};

AfgTree *afg_tree_new (AfgDocument    *document,
                       const AfgScope *scope,
                       AfgTreeFlags    flags);

G_END_DECLS
