/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  AFG_CATEGORY_PYTHON,
  AFG_CATEGORY_PYTHON_FRAMEWORK,
  AFG_CATEGORY_CANN,
  AFG_CATEGORY_UNKNOWN,
  AFG_N_CATEGORIES
} AfgCategory;

#define AFG_NODE_NONE G_MAXUINT32
#define AFG_MAX_DEPTH 1000

/* One aggregated frame. Nodes live in one array in breadth-first order:
 * the thread roots come first (ascending global tid), and the children of
 * a node are contiguous (first_child .. first_child + n_children - 1),
 * sorted by name in byte order. Further per-node metrics (device time,
 * diffs) are parallel arrays indexed like this one. */
typedef struct {
  guint32 name;         /* index into the profile's string table */
  guint32 parent;       /* AFG_NODE_NONE for a thread root */
  guint32 first_child;
  guint32 n_children;
  guint32 depth;        /* 0 for a thread root, 1 for its top-level calls */
  guint32 thread;       /* index of the owning thread */
  guint64 calls;
  gint64  total_ns;
  gint64  self_ns;      /* 0 for a thread root */
} AfgNode;

typedef struct {
  gint64       global_tid;
  guint32      pid;
  guint32      tid;
  const char  *label;   /* "pid/tid" */
  guint32      root;    /* node index of this thread's root */
} AfgThread;

typedef struct {
  guint64 rows;
  guint64 used;
  guint64 skipped_type;
  guint64 skipped_null;
  guint64 skipped_malformed;
  guint64 skipped_nonpositive;
  guint64 profiler_steps;
  guint64 partial_overlaps;
  guint64 depth_truncated;
} AfgStats;

typedef struct _AfgProfile AfgProfile;

AfgProfile       *afg_profile_ref                (AfgProfile       *self);
void              afg_profile_unref              (AfgProfile       *self);
const char       *afg_profile_get_source_path    (const AfgProfile *self);
const char       *afg_profile_get_source_name    (const AfgProfile *self);
guint64           afg_profile_get_source_bytes   (const AfgProfile *self);
const AfgStats   *afg_profile_get_stats          (const AfgProfile *self);
double            afg_profile_get_load_seconds   (const AfgProfile *self);
guint             afg_profile_get_n_threads      (const AfgProfile *self);
const AfgThread  *afg_profile_get_thread         (const AfgProfile *self,
                                                  guint             index);
guint             afg_profile_get_n_nodes        (const AfgProfile *self);
const AfgNode    *afg_profile_get_nodes          (const AfgProfile *self);
const AfgNode    *afg_profile_get_node           (const AfgProfile *self,
                                                  guint32           index);
const char       *afg_profile_get_node_name      (const AfgProfile *self,
                                                  guint32           index);
AfgCategory       afg_profile_get_node_category  (const AfgProfile *self,
                                                  guint32           index);
gint64            afg_profile_get_total_ns       (const AfgProfile *self);
gboolean          afg_profile_is_empty           (const AfgProfile *self);

const char       *afg_category_to_string         (AfgCategory       category);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgProfile, afg_profile_unref)

G_END_DECLS
