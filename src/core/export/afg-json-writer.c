/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-cores.h"
#include "afg-document-timeline.h"
#include "afg-function-table.h"
#include "afg-huge.h"
#include "afg-json-node-writer.h"
#include "afg-json-put.h"
#include "afg-json-writer.h"
#include "afg-transform-list.h"
#include "afg-writers.h"

/* The two-character escape of @c, or NULL; \b and \f outside a page
 * only, as ranks.json has always had them. */
static const char *
short_escape (guchar c, gboolean page)
{
  switch (c)
    {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\b': return page ? NULL : "\\b";
    case '\f': return page ? NULL : "\\f";
    default: return NULL;
    }
}

static gboolean
needs_code_escape (guchar c, gboolean page)
{
  return c < 0x20 || (page ? c == '<' || c == '>' || c == '&' : c == 0x7f);
}

/* Runs that need no escape are appended whole: names are mostly plain. */
static void
append_escaped (GString *out, const char *text, gboolean page)
{
  static const char hex[] = "0123456789abcdef";

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p; p++)
    {
      const guchar *run = p;
      const char *escape;

      while (*p && !afg_json_needs_escape (*p) && *p != 0x7f)
        p++;
      g_string_append_len (out, (const char *) run, p - run);
      if (!*p)
        break;
      if ((escape = short_escape (*p, page)) != NULL)
        g_string_append (out, escape);
      else if (needs_code_escape (*p, page))
        {
          g_string_append (out, "\\u00");
          g_string_append_c (out, hex[*p >> 4]);
          g_string_append_c (out, hex[*p & 15]);
        }
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
afg_json_append_string (GString *out, const char *text)
{
  append_escaped (out, text, TRUE);
}

void
afg_json_append_text (GString *out, const char *text)
{
  append_escaped (out, text, FALSE);
}

void
afg_json_append_member_int (GString *out, const char *name, gint64 value)
{
  g_string_append_printf (out, ",\"%s\":", name);
  afg_json_append_int (out, value);
}

void
afg_json_append_split (GString *out, const AfgDeviceSplit *split)
{
  g_string_append (out, "{\"compute_ns\":");
  afg_json_append_int (out, split->compute_ns);
  afg_json_append_member_int (out, "comm_ns", split->comm_ns);
  afg_json_append_member_int (out, "other_ns", split->other_ns);
  afg_json_append_member_int (out, "free_ns", split->free_ns);
  g_string_append_c (out, '}');
}

void
afg_json_append_stats (GString *out, const AfgStats *s)
{
  g_string_append_printf (out,
      "\"stats\":{\"rows\":%" G_GUINT64_FORMAT ",\"used\":%" G_GUINT64_FORMAT
      ",\"skipped_type\":%" G_GUINT64_FORMAT ",\"skipped_null\":%" G_GUINT64_FORMAT
      ",\"skipped_malformed\":%" G_GUINT64_FORMAT ",\"skipped_nonpositive\":%" G_GUINT64_FORMAT
      ",\"profiler_steps\":%" G_GUINT64_FORMAT ",\"partial_overlaps\":%" G_GUINT64_FORMAT
      ",\"depth_truncated\":%" G_GUINT64_FORMAT "}",
      s->rows, s->used, s->skipped_type, s->skipped_null, s->skipped_malformed,
      s->skipped_nonpositive, s->profiler_steps, s->partial_overlaps, s->depth_truncated);
}

void
afg_json_append_int (GString *out, gint64 value)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 v = value < 0 ? 0 - (guint64) value : (guint64) value;

  do
    *--p = '0' + v % 10;
  while ((v /= 10) != 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

static void
append_range (GString *out, gint64 start_ns, gint64 end_ns)
{
  g_string_append (out, ",\"start_ns\":");
  afg_json_append_int (out, start_ns);
  g_string_append (out, ",\"end_ns\":");
  afg_json_append_int (out, end_ns);
}

/* A bare time range (no steps named) has "steps":null. */
static void
append_scope (GString *out, const AfgScope *scope)
{
  g_string_append (out, ",\"scope\":");
  if (!scope->bounded)
    {
      g_string_append (out, "null");
      return;
    }
  if (scope->n_steps == 0)
    g_string_append (out, "{\"steps\":null");
  else
    {
      g_string_append (out, "{\"steps\":[");
      afg_json_append_int (out, scope->first_step);
      g_string_append_c (out, ',');
      afg_json_append_int (out, scope->last_step);
      g_string_append_c (out, ']');
    }
  append_range (out, scope->start_ns, scope->end_ns);
  if (scope->npu_idle)
    {
      g_string_append (out, ",\"npu_idle\":true,\"idle_ns\":");
      afg_json_append_int (out, afg_spans_get_length (scope->idle));
    }
  g_string_append_c (out, '}');
}

/* What the device did in [start, end): null without a timeline. */
static void
append_device_split (GString *out, const AfgDeviceTimeline *timeline, gboolean has_window, gint64 start,
                     gint64 end)
{
  AfgDeviceSplit split;

  if (timeline == NULL || !has_window)
    {
      g_string_append (out, "null");
      return;
    }
  afg_device_timeline_split (timeline, start, end, &split);
  afg_json_append_split (out, &split);
}

void
afg_json_append_scope (GString *out, const AfgScope *scope)
{
  append_scope (out, scope);
}

void
afg_json_append_source (GString *out, const AfgDocument *document)
{
  g_string_append (out, "\"source\":{\"file\":");
  afg_json_append_string (out, afg_document_get_source_name (document));
  g_string_append_printf (out, ",\"bytes\":%" G_GUINT64_FORMAT "}", afg_document_get_source_bytes (document));
}

void
afg_json_append_steps (GString *out, const AfgTree *tree)
{
  const AfgDocument *document = afg_tree_get_document (tree);
  const AfgDeviceTimeline *timeline = afg_document_get_timeline (document);
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  gint64 start = 0, end = 0;
  gboolean has_window = afg_document_get_profile_window (document, &start, &end);

  append_scope (out, afg_tree_get_scope (tree));
  g_string_append (out, ",\"steps\":[");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, i > 0 ? ",{\"id\":" : "{\"id\":");
      afg_json_append_int (out, steps[i].id);
      append_range (out, steps[i].start_ns, steps[i].end_ns);
      g_string_append (out, ",\"device\":");
      append_device_split (out, timeline, TRUE, steps[i].start_ns, steps[i].end_ns);
      g_string_append_c (out, '}');
    }
  g_string_append (out, "],\"device_timeline\":");
  append_device_split (out, timeline, has_window, start, end);
}

static void
append_columns (GString *out, const AfgTree *tree, guint32 i, AfgColumnFlags required)
{
  for (AfgColumn c = 0; c < AFG_N_COLUMNS; c++)
    {
      const AfgColumnInfo *info = afg_column_get_info (c);

      if (!afg_tree_has_column (tree, c) || (info->flags & required) != required
          || (info->flags & AFG_COLUMN_FLAG_DURATION))
        continue;
      g_string_append (out, ",\"");
      g_string_append (out, info->key);
      g_string_append (out, "\":");
      afg_json_append_int (out, afg_tree_get_value (tree, c, i));
    }
}

typedef struct {
  guint32 next;
  guint32 end;
} Range;

/* Where a streamed export's text goes: handed on in pieces of about
 * PIECE_BYTES, small enough to stay in the cache between being written
 * and being copied to the file. */
#define PIECE_BYTES (256u << 10)

typedef struct {
  AfgWriteFunc write_func;
  gpointer     write_data;
  GError      *error;  /* the first failure: the text after it is dropped */
} Drain;

static void
drain (GString *out, Drain *sink)
{
  if (sink->error == NULL)
    sink->write_func (out->str, out->len, sink->write_data, &sink->error);
  g_string_truncate (out, 0);
}

static inline void
drain_if_full (GString *out, Drain *sink)
{
  if (sink != NULL && out->len >= PIECE_BYTES)
    drain (out, sink);
}

/* Iterative pre-order walk: stacks may be 1000 frames deep. @sink (may
 * be NULL) takes the text as it grows. */
static void
append_children (GString *out, const AfgTree *tree, guint32 parent, AfgJsonNodeFunc open_node, gpointer data,
                 Drain *sink)
{
  const AfgNode *nodes = afg_tree_get_nodes (tree);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Range));
  Range range = { nodes[parent].first_child, nodes[parent].first_child + nodes[parent].n_children };

  g_string_append (out, "\"children\":[");
  g_array_append_val (stack, range);
  while (stack->len > 0)
    {
      Range *top = &g_array_index (stack, Range, stack->len - 1);
      const AfgNode *n;

      if (top->next == top->end)
        {
          g_array_set_size (stack, stack->len - 1);
          g_string_append (out, stack->len > 0 ? "]}" : "]");
          continue;
        }
      n = &nodes[top->next];
      if (top->next != nodes[n->parent].first_child)
        g_string_append_c (out, ',');
      open_node (out, top->next++, data);
      drain_if_full (out, sink);
      range = (Range) { n->first_child, n->first_child + n->n_children };
      g_array_append_val (stack, range);
    }
}

void
afg_json_append_children (GString *out, const AfgTree *tree, guint32 parent, AfgJsonNodeFunc open_node,
                          gpointer data)
{
  append_children (out, tree, parent, open_node, data, NULL);
}

static void
append_thread (GString *out, const AfgTree *tree, const AfgThread *t, AfgJsonNodeWriter *writer, Drain *sink)
{
  g_string_append_printf (out, "{\"global_tid\":%" G_GINT64_FORMAT ",\"pid\":%u,\"tid\":%u,\"label\":",
                          t->global_tid, t->pid, t->tid);
  afg_json_append_string (out, t->label);
  afg_json_append_role (out, t->role);
  append_columns (out, tree, t->node, AFG_COLUMN_FLAG_THREAD);
  g_string_append_c (out, ',');
  append_children (out, tree, t->node, afg_json_node_writer_open, writer, sink);
  g_string_append_c (out, '}');
}

/* Absent for a thread without a role: earlier readers see the same bytes. */
void
afg_json_append_role (GString *out, AfgThreadRole role)
{
  if (role != AFG_THREAD_ROLE_NONE)
    g_string_append_printf (out, ",\"role\":\"%s\"", afg_thread_role_to_key (role));
}

/* null when the DB has no NPU data: the node and thread fields are then absent too. */
void
afg_json_append_npu (GString *out, const AfgNpuStats *npu)
{
  if (npu == NULL)
    {
      g_string_append (out, ",\"npu\":null");
      return;
    }
  g_string_append_printf (out, ",\"npu\":{\"tasks\":%" G_GUINT64_FORMAT ",\"ns\":%" G_GINT64_FORMAT
                          ",\"unlinked_tasks\":%" G_GUINT64_FORMAT ",\"unlinked_ns\":%" G_GINT64_FORMAT
                          ",\"skipped\":%" G_GUINT64_FORMAT "}",
                          npu->tasks, npu->ns, npu->unlinked_tasks, npu->unlinked_ns, npu->skipped);
}

static void
append_function (GString *out, const AfgFunctionTable *table, guint k)
{
  const AfgFunction *f = afg_function_table_get (table, k);
  const char *name = afg_function_table_get_name (table, k);
  const char *category = afg_category_to_string (f->category);
  gssize name_len = plain_length (name);
  gsize fixed = 96 + strlen (category) + 3 * MAX_INT_TEXT;
  char *p;

  if (name_len < 0)
    {
      g_string_append (out, k > 0 ? ",{\"name\":" : "{\"name\":");
      afg_json_append_string (out, name);
      p = room (out, fixed);
    }
  else
    {
      p = room (out, fixed + (gsize) name_len);
      p = k > 0 ? PUT_LITERAL (p, ",{\"name\":\"") : PUT_LITERAL (p, "{\"name\":\"");
      p = put (p, name, (gsize) name_len);
      *p++ = '"';
    }
  p = PUT_LITERAL (p, ",\"category\":\"");
  p = put (p, category, strlen (category));
  p = PUT_LITERAL (p, "\",\"calls\":");
  p = put_int (p, f->calls);
  p = PUT_LITERAL (p, ",\"self_ns\":");
  p = put_int (p, f->self_ns);
  p = PUT_LITERAL (p, ",\"total_ns\":");
  p = put_int (p, f->total_ns);
  *p++ = '}';
  end_room (out, p);
}

void
afg_json_append_functions (GString *out, const AfgTree *tree)
{
  g_autoptr(AfgFunctionTable) table = afg_function_table_new ((AfgTree *) tree);

  g_string_append (out, "\"functions\":[");
  for (guint k = 0; k < afg_function_table_get_n_functions (table); k++)
    append_function (out, table, k);
  g_string_append_c (out, ']');
}

void
afg_json_append_transforms (GString *out, const AfgTree *tree)
{
  const AfgTransformList *list = afg_tree_get_transforms (tree);

  if (list == NULL)
    return;
  g_string_append (out, ",\"transforms\":[");
  for (guint i = 0; i < afg_transform_list_get_length (list); i++)
    {
      const AfgTransform *t = afg_transform_list_get (list, i);

      g_string_append (out, i > 0 ? ",{\"op\":\"" : "{\"op\":\"");
      g_string_append (out, afg_transform_op_to_string (t->op));
      g_string_append (out, "\",\"arg\":");
      afg_json_append_string (out, t->arg);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}

static void
append_threads (GString *out, const AfgTree *tree, Drain *sink)
{
  AfgJsonNodeWriter writer;

  afg_json_node_writer_init (&writer, tree);
  for (guint i = 0; i < afg_tree_get_n_threads (tree); i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_thread (out, tree, afg_tree_get_thread (tree, i), &writer, sink);
    }
  afg_json_node_writer_clear (&writer);
}

typedef struct {
  const AfgTree *tree;
  GString       *out;
} FunctionsText;

static gpointer
append_functions_text (gpointer data)
{
  FunctionsText *text = data;

  afg_json_append_functions (text->out, text->tree);
  return NULL;
}

#define PARALLEL_MIN_NODES 10000

/* The function table is built on a second core while this one writes the
 * threads, most of the output; its text, a small part, is then moved in
 * before them (no second copy of the threads' text). */
/* Everything before "functions". */
static void
append_head (GString *out, const AfgTree *tree)
{
  AfgDocument *doc = afg_tree_get_document (tree);

  g_string_append (out, "{\"format\":\"ascend-flamegraph\",\"version\":3,");
  afg_json_append_source (out, doc);
  g_string_append_c (out, ',');
  afg_json_append_stats (out, afg_tree_get_stats (tree));
  afg_json_append_steps (out, tree);
  afg_json_append_npu (out, afg_document_get_npu_stats (doc));
  afg_json_append_transforms (out, tree);
  g_string_append_c (out, ',');
}

void
afg_json_write (const AfgTree *tree, GString *out)
{
  FunctionsText functions = { tree, NULL };
  GThread *helper = NULL;
  gsize at;

  append_head (out, tree);
  at = out->len;
  if (afg_tree_get_n_nodes (tree) >= PARALLEL_MIN_NODES && afg_cores_get () > 1)
    {
      /* About 120 bytes a function, fewer functions than nodes. */
      functions.out = afg_huge_string_new (160 * (gsize) afg_tree_get_n_nodes (tree));
      helper = g_thread_new ("afg-json", append_functions_text, &functions);
    }
  else
    afg_json_append_functions (out, tree);
  g_string_append (out, ",\"threads\":[");
  append_threads (out, tree, NULL);
  g_string_append (out, "]}\n");
  if (helper != NULL)
    {
      g_thread_join (helper);
      g_string_insert_len (out, at, functions.out->str, functions.out->len);
      g_string_free (functions.out, TRUE);
    }
}

/* The text in order, one core: nothing to overlap the threads' text
 * with, so none of it is held longer than a piece. */
gboolean
afg_json_write_streamed (const AfgTree *tree, AfgWriteFunc write_func, gpointer user_data, GError **error)
{
  g_autoptr(GString) out = g_string_sized_new (2 * PIECE_BYTES);
  Drain sink = { write_func, user_data, NULL };

  append_head (out, tree);
  afg_json_append_functions (out, tree);
  g_string_append (out, ",\"threads\":[");
  append_threads (out, tree, &sink);
  g_string_append (out, "]}\n");
  drain (out, &sink);
  if (sink.error == NULL)
    return TRUE;
  g_propagate_error (error, sink.error);
  return FALSE;
}
