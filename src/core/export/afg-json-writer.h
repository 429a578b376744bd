/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-device-timeline.h"
#include "afg-tree.h"

G_BEGIN_DECLS

/* A byte afg_json_append_string() escapes. */
static inline gboolean
afg_json_needs_escape (guchar c)
{
  return c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&';
}

/* Appends @text as a JSON string; <, > and & are escaped so that the
 * result can sit inside an HTML <script> element. */
void afg_json_append_string (GString    *out,
                             const char *text);
/* Appends @text as a JSON string for a file read on its own (ranks.json):
 * <, > and & as they are, \b and \f short, DEL escaped. */
void afg_json_append_text   (GString    *out,
                             const char *text);
void afg_json_append_int    (GString    *out,
                             gint64      value);
/* ,"NAME":VALUE */
void afg_json_append_member_int (GString    *out,
                                 const char *name,
                                 gint64      value);
/* {"compute_ns","comm_ns","other_ns","free_ns"}: a device split. */
void afg_json_append_split  (GString              *out,
                             const AfgDeviceSplit *split);
/* "stats":{…} of JSON v1, shared by the JSON export and the HTML page. */
void afg_json_append_stats  (GString        *out,
                             const AfgStats *stats);
/* ,"npu":{…} of JSON v2, or ,"npu":null for a DB without NPU data. */
void afg_json_append_npu    (GString           *out,
                             const AfgNpuStats *npu);

/* ,"role":"main" (afg_thread_role_to_key) of a thread with a role; nothing
 * for one without. */
void afg_json_append_role   (GString           *out,
                             AfgThreadRole      role);

/* "source":{"file","bytes"} of JSON v1: the DB's name and size. */
void afg_json_append_source (GString           *out,
                             const AfgDocument *document);
/* ,"scope":… of JSON v2: null for the whole profile, else the steps
 * (null for a bare time range), start_ns and end_ns. */
void afg_json_append_scope  (GString        *out,
                             const AfgScope *scope);
/* ,"scope":…,"steps":[…] of JSON v2: the tree's scope (null for the
 * whole profile) and every step of its document, by id. */
void afg_json_append_steps  (GString        *out,
                             const AfgTree  *tree);
/* ,"transforms":[{"op","arg"},…] when @tree was transformed
 * (afg-tree-transform.h), in the order they were applied; nothing else. */
void afg_json_append_transforms (GString       *out,
                                 const AfgTree *tree);
/* "functions":[…] of JSON v2 (afg-function-table.h), by self_ns
 * descending, then name. */
void afg_json_append_functions (GString       *out,
                                const AfgTree *tree);

/* Appends {"name",…} for a node, without its children or the closing
 * "]}" (the walk adds them). */
typedef void (*AfgJsonNodeFunc) (GString  *out,
                                 guint32   node,
                                 gpointer  data);
/* "children":[…] under @parent, pre-order, each node opened by
 * @open_node, then its children, then "]}". */
void afg_json_append_children (GString        *out,
                               const AfgTree  *tree,
                               guint32         parent,
                               AfgJsonNodeFunc open_node,
                               gpointer        data);

G_END_DECLS
