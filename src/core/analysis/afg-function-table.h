/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* One distinct frame name of a tree (after address merging when the tree
 * merges them). calls and self_ns add up over its frames; total_ns adds
 * up the totals of its frames that have no ancestor frame of the same
 * name in their thread, so that recursion is counted once. */
typedef struct {
  guint32     name;       /* string index */
  AfgCategory category;
  gint64      calls;
  gint64      self_ns;
  gint64      total_ns;
  /* The same sums over the NPU columns; 0 for a tree without them. */
  gint64      npu_self_ns;
  gint64      npu_total_ns;
} AfgFunction;

typedef enum {
  AFG_FUNCTION_SORT_NAME,
  AFG_FUNCTION_SORT_CATEGORY,
  AFG_FUNCTION_SORT_CALLS,
  AFG_FUNCTION_SORT_SELF,
  AFG_FUNCTION_SORT_TOTAL,
  AFG_FUNCTION_SORT_NPU_SELF,
  AFG_FUNCTION_SORT_NPU_TOTAL,
} AfgFunctionSort;

#define AFG_FUNCTION_NONE G_MAXUINT32

/* The function table of a tree, immutable once built; functions are in
 * the order of the JSON: self_ns descending, then name in byte order. */
typedef struct _AfgFunctionTable AfgFunctionTable;

AfgFunctionTable  *afg_function_table_new          (AfgTree                *tree);
AfgFunctionTable  *afg_function_table_ref          (AfgFunctionTable       *self);
void               afg_function_table_unref        (AfgFunctionTable       *self);
AfgTree           *afg_function_table_get_tree     (const AfgFunctionTable *self);
guint              afg_function_table_get_n_functions (const AfgFunctionTable *self);
const AfgFunction *afg_function_table_get          (const AfgFunctionTable *self,
                                                    guint                   index);
const char        *afg_function_table_get_name     (const AfgFunctionTable *self,
                                                    guint                   index);
/* AFG_FUNCTION_NONE when no frame has that name. */
guint              afg_function_table_find         (const AfgFunctionTable *self,
                                                    const char             *name);
/* The function of a frame node; AFG_FUNCTION_NONE for the root and threads. */
guint              afg_function_table_find_node    (const AfgFunctionTable *self,
                                                    guint32                 node);
/* Every frame of a function, in node order. */
const guint32     *afg_function_table_get_frames   (const AfgFunctionTable *self,
                                                    guint                   index,
                                                    guint                  *n_frames);
/* The whole time of the tree (its root's total), what "% of all" is of. */
gint64             afg_function_table_get_all_ns   (const AfgFunctionTable *self);
/* The root's value of @weight (AFG_COLUMN_TOTAL_NS or
 * AFG_COLUMN_NPU_TOTAL_NS; 0 when the tree lacks it). */
gint64             afg_function_table_get_all      (const AfgFunctionTable *self,
                                                    AfgColumn               weight);
/* Each function's sum of @self_column over its frames and of
 * @total_column over its outermost frames (recursion once), as self_ns
 * and total_ns sum host time: arrays of n_functions, g_free() them. A
 * column the tree lacks sums to 0. */
void               afg_function_table_sum_columns  (const AfgFunctionTable *self,
                                                    AfgColumn               self_column,
                                                    AfgColumn               total_column,
                                                    gint64                **self_sums,
                                                    gint64                **total_sums);
/* A permutation of the function indices by @key (ties: by name
 * ascending either way), for a table view; g_free() it. */
guint             *afg_function_table_sort         (const AfgFunctionTable *self,
                                                    AfgFunctionSort         key,
                                                    gboolean                descending);

/* The sandwich of the function named @name in @tree, as trees with the
 * function as their root (NULL when no frame has that name). Both start
 * from the function's outermost frames (those counted in total_ns).
 * Callees: their subtrees, merged. Callers: inverted, the stacks that
 * lead to them (up to the thread's top-level frame), merged, each frame
 * weighted by the time of the calls it leads to. */
AfgTree           *afg_function_table_callees      (AfgTree                *tree,
                                                    const char             *name);
AfgTree           *afg_function_table_callers      (AfgTree                *tree,
                                                    const char             *name);

/* Calls @func for each frame of @tree that is outermost by @node_key
 * (a key per node, < @n_keys): no ancestor frame in its thread has the
 * same key (a tree without threads: from its root). total_ns sums these
 * frames' totals, keyed by function. */
typedef void (*AfgOutermostFunc) (guint32 node, gpointer data);

void               afg_function_table_for_each_outermost (const AfgTree    *tree,
                                                          const guint32    *node_key,
                                                          guint             n_keys,
                                                          AfgOutermostFunc  func,
                                                          gpointer          data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgFunctionTable, afg_function_table_unref)

G_END_DECLS
