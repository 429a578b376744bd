/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-document.h"
#include "afg-scope.h"

G_BEGIN_DECLS

#define AFG_NODE_NONE   G_MAXUINT32
#define AFG_THREAD_NONE G_MAXUINT32
#define AFG_MAX_DEPTH   1000
#define AFG_TREE_ROOT   0

/* The shape of one node. Nodes live in one array in breadth-first order:
 * the root ("All threads") is node 0, the threads follow (ascending global
 * tid), and the children of a node are contiguous (first_child ..
 * first_child + n_children - 1), sorted by name in byte order. What a
 * node weighs is in the tree's columns, indexed like this array. */
typedef struct {
  guint32 name;         /* index into the document's strings */
  guint32 parent;       /* AFG_NODE_NONE for the root */
  guint32 first_child;
  guint32 n_children;
  guint32 depth;        /* 0 root, 1 thread, 2 for its top-level calls */
  guint32 thread;       /* AFG_THREAD_NONE for the root */
} AfgNode;

/* A column holds one value per node. The root's and the threads' values
 * are the sums over their children; self columns are 0 there, and so is
 * NPU_TASKS. The NPU columns exist only when the document has NPU data. */
typedef enum {
  AFG_COLUMN_CALLS,
  AFG_COLUMN_TOTAL_NS,
  AFG_COLUMN_SELF_NS,
  AFG_COLUMN_NPU_TOTAL_NS,  /* device time launched from the frame and below */
  AFG_COLUMN_NPU_SELF_NS,   /* launched by the frame's own rows */
  AFG_COLUMN_NPU_TASKS,     /* the tasks behind NPU_SELF_NS */
  /* By kind (afg-task-kinds.h), with the NPU columns: compute tasks as
   * NPU_* counts all tasks; collectives each once with their own
   * duration; of those, the part not hidden behind any compute task of
   * the DB. */
  AFG_COLUMN_NPU_COMPUTE_TOTAL_NS,
  AFG_COLUMN_NPU_COMPUTE_SELF_NS,
  AFG_COLUMN_NPU_COMPUTE_TASKS,
  AFG_COLUMN_COMM_TOTAL_NS,
  AFG_COLUMN_COMM_SELF_NS,
  AFG_COLUMN_COMM_OPS,
  AFG_COLUMN_COMM_EXPOSED_TOTAL_NS,
  AFG_COLUMN_COMM_EXPOSED_SELF_NS,
  /* With AFG_TREE_DURATIONS: the durations of the calls merged into a
   * frame, nearest rank (the ceil(p*n/100)-th smallest); 0 on the root
   * and the threads. */
  AFG_COLUMN_DURATION_MIN,
  AFG_COLUMN_DURATION_P50,
  AFG_COLUMN_DURATION_P90,
  AFG_COLUMN_DURATION_P99,
  AFG_COLUMN_DURATION_MAX,
  AFG_N_COLUMNS
} AfgColumn;

#define AFG_N_DURATION_COLUMNS 5

typedef enum {
  AFG_COLUMN_FLAG_THREAD = 1 << 0,   /* also written on the threads of JSON */
  AFG_COLUMN_FLAG_SELF   = 1 << 1,   /* the self part of a total column */
  /* One of the five durations: JSON writes them together as "durations",
   * not one field each. */
  AFG_COLUMN_FLAG_DURATION = 1 << 2,
} AfgColumnFlags;

typedef struct {
  const char     *key;     /* the JSON field name */
  AfgColumnFlags  flags;
  AfgColumn       self;    /* for a total column: its self column */
} AfgColumnInfo;

const AfgColumnInfo *afg_column_get_info (AfgColumn column);

typedef struct {
  gint64       global_tid;
  guint32      pid;
  guint32      tid;
  const char  *label;   /* "pid/tid" */
  guint32      node;    /* node index of this thread */
  AfgThreadRole role;
  const char  *title;   /* "main · pid/tid" (afg_thread_role_describe) */
} AfgThread;

typedef enum {
  AFG_TREE_FLAGS_NONE      = 0,
  AFG_TREE_MERGE_ADDRESSES = 1 << 0,  /* names through afg_address_merge() */
  AFG_TREE_DURATIONS       = 1 << 1,  /* the AFG_COLUMN_DURATION_* columns */
  /* Walk the threads one after the other on one core: the same tree as
   * the parallel walk, which tests check against it. */
  AFG_TREE_ONE_CORE        = 1 << 2,
} AfgTreeFlags;

/* What is built from a document for one scope: immutable, shared. */
typedef struct _AfgTree AfgTree;

AfgTree          *afg_tree_ref               (AfgTree        *self);
void              afg_tree_unref             (AfgTree        *self);
AfgDocument      *afg_tree_get_document      (const AfgTree  *self);
const AfgScope   *afg_tree_get_scope         (const AfgTree  *self);
AfgTreeFlags      afg_tree_get_flags         (const AfgTree  *self);
/* The document's load counts with this tree's used, partial_overlaps and
 * depth_truncated. */
const AfgStats   *afg_tree_get_stats         (const AfgTree  *self);
guint             afg_tree_get_n_nodes       (const AfgTree  *self);
const AfgNode    *afg_tree_get_nodes         (const AfgTree  *self);
const AfgNode    *afg_tree_get_node          (const AfgTree  *self,
                                              guint32         node);
const char       *afg_tree_get_node_name     (const AfgTree  *self,
                                              guint32         node);
/* FALSE for the root and the threads of a profile tree; every node of a
 * tree of merged paths (a function's callers or callees) is a frame. */
gboolean          afg_tree_is_frame          (const AfgTree  *self,
                                              guint32         node);
/* AFG_CATEGORY_UNKNOWN where afg_tree_is_frame() is FALSE. */
AfgCategory       afg_tree_get_node_category (const AfgTree  *self,
                                              guint32         node);
gboolean          afg_tree_has_column        (const AfgTree  *self,
                                              AfgColumn       column);
/* The kernel leaves of @node (AfgNpuKernel: compute tasks and
 * collectives its own rows launched, by name), sorted by kind, then name
 * in byte order; NULL and 0 for none or without NPU data. */
const AfgNpuKernel *afg_tree_get_kernels     (const AfgTree  *self,
                                              guint32         node,
                                              guint          *n_kernels);
/* NULL when the tree has no such column. */
const gint64     *afg_tree_get_column        (const AfgTree  *self,
                                              AfgColumn       column);
gint64            afg_tree_get_value         (const AfgTree  *self,
                                              AfgColumn       column,
                                              guint32         node);
guint             afg_tree_get_n_threads     (const AfgTree  *self);
const AfgThread  *afg_tree_get_thread        (const AfgTree  *self,
                                              guint           index);
/* What the views show for @node: a thread's title, else its name. */
const char       *afg_tree_get_node_title    (const AfgTree  *self,
                                              guint32         node);
gboolean          afg_tree_is_empty          (const AfgTree  *self);
/* For an empty tree, sets AFG_LOAD_ERROR_EMPTY ("FILE: no usable rows in
 * PYTORCH_API", its hint from afg_load_error_get_hint) and returns FALSE:
 * the CLI warns with it, the window shows it. */
gboolean          afg_tree_check_not_empty   (const AfgTree  *self,
                                              GError        **error);
/* The parent of @node in a view rooted at @view_root: AFG_NODE_NONE at
 * the view root. */
guint32           afg_tree_get_parent_in_view (const AfgTree *self,
                                              guint32         view_root,
                                              guint32         node);
/* TRUE when @node is @ancestor or lies below it. */
gboolean          afg_tree_is_descendant     (const AfgTree  *self,
                                              guint32         node,
                                              guint32         ancestor);

/* Called on each node of a walk, parents before children: @value holds
 * what the parent's call left there, and what this call leaves in it is
 * what the node's children get. FALSE stops the walk. */
typedef gboolean (*AfgTreeVisitFunc) (const AfgTree  *tree,
                                      guint32         node,
                                      guint32        *value,
                                      gpointer        data);
/* Every node below @from, depth-first, children in their order; @from's
 * children get @value. Without recursion: stacks may be AFG_MAX_DEPTH
 * deep. FALSE when @visit stopped it. */
gboolean          afg_tree_walk              (const AfgTree  *self,
                                              guint32         from,
                                              guint32         value,
                                              AfgTreeVisitFunc visit,
                                              gpointer        data);

/* The transforms (afg-tree-transform.h) that made this tree from the one
 * built from its document, in order; NULL when none. */
typedef struct _AfgTransformList AfgTransformList;
const AfgTransformList *afg_tree_get_transforms (const AfgTree *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgTree, afg_tree_unref)

G_END_DECLS
