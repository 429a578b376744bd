/* SPDX-License-Identifier: MIT */
/* -f trace: Chrome Trace Event JSON. Each rule on a DB made for it, the
 * real samples, and the command line. */
#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "afg-test-db.h"
#include "afg-trace-reader.h"
#include "afg-writers.h"

#define T1 GTID (1, 1)
#define T2 GTID (1, 2)
#define T3 GTID (7, 3)

typedef AfgTestDb TraceTestDb;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TraceTestDb, afg_test_db_free)

typedef struct {
  const char *ph;
  guint32     pid;
  guint32     tid;
  gint64      ts;   /* ns after base_ns */
  gint64      dur;
  const char *name;
  const char *cat;
  gint64      id;
  const char *bp;
} Event;

typedef struct {
  JsonParser *parser;
  GArray     *events;    /* Event */
  gint64      base_ns;
  char       *text;
} Trace;

static void
trace_free (Trace *trace)
{
  g_object_unref (trace->parser);
  g_array_unref (trace->events);
  g_free (trace->text);
  g_free (trace);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Trace, trace_free)

static gint64
member_us (JsonObject *o, const char *name)
{
  return json_object_has_member (o, name) ? (gint64) (json_object_get_double_member (o, name) * 1000 + 0.5) : -1;
}

static Event
read_event (JsonObject *o)
{
  Event e = { 0 };

  e.ph = json_object_get_string_member (o, "ph");
  e.pid = (guint32) json_object_get_int_member (o, "pid");
  e.tid = (guint32) json_object_get_int_member (o, "tid");
  e.ts = member_us (o, "ts");
  e.dur = member_us (o, "dur");
  e.name = json_object_get_string_member_with_default (o, "name", NULL);
  e.cat = json_object_get_string_member_with_default (o, "cat", NULL);
  e.id = json_object_get_int_member_with_default (o, "id", -1);
  e.bp = json_object_get_string_member_with_default (o, "bp", NULL);
  return e;
}

/* Parses with json-glib: the file must be JSON. */
static Trace *
trace_load (const char *path)
{
  Trace *trace = g_new0 (Trace, 1);
  g_autoptr(GError) error = NULL;
  JsonObject *root, *other;
  JsonArray *events;

  g_assert_true (g_file_get_contents (path, &trace->text, NULL, NULL));
  trace->parser = json_parser_new ();
  json_parser_load_from_data (trace->parser, trace->text, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (trace->parser));
  g_assert_cmpstr (json_object_get_string_member (root, "displayTimeUnit"), ==, "ns");
  other = json_object_get_object_member (root, "otherData");
  trace->base_ns = json_object_get_int_member (other, "base_ns");
  events = json_object_get_array_member (root, "traceEvents");
  trace->events = g_array_new (FALSE, FALSE, sizeof (Event));
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      Event e = read_event (json_array_get_object_element (events, i));
      g_array_append_val (trace->events, e);
    }
  return trace;
}

/* A device task's category is its kind. */
static gboolean
is_task_category (const char *cat)
{
  return g_strcmp0 (cat, "compute") == 0 || g_strcmp0 (cat, "communication") == 0 || g_strcmp0 (cat, "other") == 0;
}

static gboolean
is_host (const Event *e)
{
  return g_str_equal (e->ph, "X") && !is_task_category (e->cat) && g_strcmp0 (e->cat, "step") != 0;
}

static char *
row_line (guint32 pid, guint32 tid, gint64 start, gint64 end, const char *name)
{
  return g_strdup_printf ("%u/%u\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%s", pid, tid, start, end, name);
}

/* Every used row of the store once, on its thread, cut to @scope. */
static GPtrArray *
expected_rows (const AfgDocument *document, const AfgScope *scope)
{
  const AfgEventStore *store = afg_document_get_events (document);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint t = 0; t < afg_event_store_get_n_threads (store); t++)
    {
      const AfgEventThread *thread = afg_event_store_get_thread (store, t);
      AfgEventCursor cursor;
      AfgEvent e;

      afg_event_cursor_init (&cursor, thread);
      while (afg_event_cursor_next (&cursor, &e))
        {
          gint64 start = scope ? MAX (e.start, scope->start_ns) : e.start;
          gint64 end = scope ? MIN (e.end, scope->end_ns) : e.end;

          if (end > start)
            g_ptr_array_add (lines, row_line (thread->pid, thread->tid, start, end,
                                              afg_document_get_string (document, e.name)));
        }
    }
  g_ptr_array_sort (lines, (GCompareFunc) g_strcmp0);
  return lines;
}

static GPtrArray *
trace_rows (const Trace *trace)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);

      if (is_host (e))
        g_ptr_array_add (lines, row_line (e->pid, e->tid, trace->base_ns + e->ts, trace->base_ns + e->ts + e->dur,
                                          e->name));
    }
  g_ptr_array_sort (lines, (GCompareFunc) g_strcmp0);
  return lines;
}

static void
check_rows (const Trace *trace, const AfgDocument *document, const AfgScope *scope)
{
  g_autoptr(GPtrArray) expected = expected_rows (document, scope);
  g_autoptr(GPtrArray) actual = trace_rows (trace);

  afg_test_assert_lines (actual, expected, "host rows");
}

typedef struct {
  gint64   ts;
  gint64   dur;
  gboolean npu;
} Slice;

static int
compare_slices (gconstpointer a, gconstpointer b)
{
  gint64 x = ((const Slice *) a)->ts, y = ((const Slice *) b)->ts;

  return x < y ? -1 : x > y;
}

static char *
track_key (guint32 pid, guint32 tid)
{
  return g_strdup_printf ("%u/%u", pid, tid);
}

/* "pid/tid" -> its X events (Slice), sorted by ts. */
static GHashTable *
index_tracks (const Trace *trace)
{
  GHashTable *tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);
      Slice slice = { e->ts, e->dur, is_task_category (e->cat) };
      char *key;
      GArray *slices;

      if (!g_str_equal (e->ph, "X"))
        continue;
      key = track_key (e->pid, e->tid);
      slices = g_hash_table_lookup (tracks, key);
      if (slices == NULL)
        {
          slices = g_array_new (FALSE, FALSE, sizeof (Slice));
          g_hash_table_insert (tracks, g_strdup (key), slices);
        }
      g_array_append_val (slices, slice);
      g_free (key);
    }
  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_sort (value, compare_slices);
  return tracks;
}

/* An X event (a task's when @npu) on (@pid, @tid) around @ts. */
static gboolean
has_slice_at (GHashTable *tracks, guint32 pid, guint32 tid, gint64 ts, gboolean npu)
{
  g_autofree char *key = track_key (pid, tid);
  GArray *slices = g_hash_table_lookup (tracks, key);
  guint lo = 0, hi = slices ? slices->len : 0;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (slices, Slice, mid).ts <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i-- > 0;)
    {
      const Slice *slice = &g_array_index (slices, Slice, i);

      if (slice->npu == npu && ts <= slice->ts + slice->dur)
        return TRUE;
    }
  return FALSE;
}

static GHashTable *
index_flow_ends (const Trace *trace, const char *ph)
{
  GHashTable *ends = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < trace->events->len; i++)
    {
      Event *e = &g_array_index (trace->events, Event, i);

      if (g_str_equal (e->ph, ph))
        g_assert_true (g_hash_table_insert (ends, &e->id, e));
    }
  return ends;
}

/* Every flow has its two ends, once each: the start on a host row, the
 * end (bound to the enclosing slice) on a task. Returns the flows. */
static guint
check_flows (const Trace *trace)
{
  g_autoptr(GHashTable) tracks = index_tracks (trace);
  g_autoptr(GHashTable) starts = index_flow_ends (trace, "s");
  g_autoptr(GHashTable) finishes = index_flow_ends (trace, "f");
  GHashTableIter iter;
  gpointer value;

  g_assert_cmpuint (g_hash_table_size (starts), ==, g_hash_table_size (finishes));
  g_hash_table_iter_init (&iter, starts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const Event *s = value;
      const Event *f = g_hash_table_lookup (finishes, &s->id);

      g_assert_nonnull (f);
      g_assert_cmpstr (f->bp, ==, "e");
      g_assert_true (has_slice_at (tracks, s->pid, s->tid, s->ts, FALSE));
      g_assert_true (has_slice_at (tracks, f->pid, f->tid, f->ts, TRUE));
    }
  return g_hash_table_size (starts);
}

/* The metadata name of a process (tid 0 for "process_name") or thread. */
static const char *
meta_name (const Trace *trace, const char *what, guint32 pid, guint32 tid)
{
  JsonArray *events = json_object_get_array_member (json_node_get_object (json_parser_get_root (trace->parser)),
                                                    "traceEvents");

  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);

      if (g_str_equal (e->ph, "M") && g_str_equal (e->name, what) && e->pid == pid
          && (e->tid == tid || g_str_equal (what, "process_name")))
        return json_object_get_string_member (json_object_get_object_member (
                                                json_array_get_object_element (events, i), "args"), "name");
    }
  return NULL;
}

static guint
count_events (const Trace *trace, const char *ph, const char *cat)
{
  guint n = 0;

  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);
      n += g_str_equal (e->ph, ph) && (cat == NULL || g_strcmp0 (e->cat, cat) == 0);
    }
  return n;
}

static const Event *
find_event (const Trace *trace, const char *ph, const char *cat, guint nth)
{
  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);

      if (g_str_equal (e->ph, ph) && g_strcmp0 (e->cat, cat) == 0 && nth-- == 0)
        return e;
    }
  return NULL;
}

/* Writes the trace of @document in @scope as the command line does. */
static Trace *
export_trace (AfgDocument *document, const AfgScope *scope, char **warning)
{
  g_autoptr(AfgTree) tree = afg_test_build (document, scope, AFG_TREE_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *path = NULL;
  Trace *trace;

  g_assert_true (afg_export_to_dir (tree, &(AfgExportOptions) { AFG_FORMAT_TRACE }, dir, &path, warning, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "/flamegraph.trace.json"));
  trace = trace_load (path);
  afg_test_rm_rf (dir);
  return trace;
}

static AfgDocument *
load_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  AfgDocument *document = afg_document_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return document;
}

/* Nesting, a partial overlap, two equal rows, other threads and pids:
 * every used row once on its own thread; a ProfilerStep row only on the
 * steps track; skipped rows nowhere. */
static void
test_host_rows (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  const Event *step;

  afg_test_db_add (db, T1, 1000, 2000, "outer");
  afg_test_db_add (db, T1, 1100, 1500, "inner");
  afg_test_db_add (db, T1, 1400, 2500, "overlapping");
  afg_test_db_add (db, T1, 3000, 3100, "twice");
  afg_test_db_add (db, T1, 3000, 3100, "twice");
  afg_test_db_add (db, T2, 1200, 1300, "other thread");
  afg_test_db_add (db, T3, 1250, 1260, "other pid");
  afg_test_db_add (db, T1, 900, 4000, "ProfilerStep#7");
  afg_test_db_add_typed (db, T1, 1000, 2000, "marker", TYPE_MSTX);
  afg_test_db_add (db, T1, 5000, 5000, "zero");
  document = afg_test_db_load_document (db);
  trace = export_trace (document, NULL, NULL);
  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", NULL), ==, 8);
  g_assert_cmpint (trace->base_ns, ==, 900);
  step = find_event (trace, "X", "step", 0);
  g_assert_nonnull (step);
  g_assert_cmpstr (step->name, ==, "ProfilerStep#7");
  g_assert_cmpint (step->ts, ==, 0);
  g_assert_cmpint (step->dur, ==, 3100);
  g_assert_cmpstr (meta_name (trace, "process_name", step->pid, 0), ==, "Steps");
  g_assert_cmpuint (step->pid, !=, 1);
  g_assert_cmpuint (step->pid, !=, 7);
  g_assert_cmpstr (meta_name (trace, "thread_name", 7, 3), ==, "7/3");
  g_assert_cmpuint (count_events (trace, "s", NULL), ==, 0);
}

/* A row cut at depth 1000 still is a used row: it is an event. */
static void
test_depth_cut (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(AfgTree) tree = NULL;
  g_autoptr(Trace) trace = NULL;

  afg_test_db_begin (db);
  for (gint64 i = 0; i < 1005; i++)
    afg_test_db_add (db, T1, i, 10000 - i, "deep");
  afg_test_db_commit (db);
  document = afg_test_db_load_document (db);
  tree = afg_test_build (document, NULL, AFG_TREE_FLAGS_NONE);
  g_assert_cmpuint (afg_tree_get_stats (tree)->depth_truncated, ==, 5);
  trace = export_trace (document, NULL, NULL);
  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", NULL), ==, 1005);
}

static guint32
pid_of_process (const Trace *trace, const char *name)
{
  for (guint i = 0; i < trace->events->len; i++)
    {
      const Event *e = &g_array_index (trace->events, Event, i);

      if (g_str_equal (e->ph, "M") && g_str_equal (e->name, "process_name")
          && g_strcmp0 (meta_name (trace, "process_name", e->pid, 0), name) == 0)
        return e->pid;
    }
  g_assert_not_reached ();
}

/* The NPU links: the lowest rowid *used* row takes a connection id's
 * tasks; -1 and 4294967295 never link; a task that reaches only unused
 * rows is drawn without a flow; a task without two integer times is not
 * drawn. One process per device, one thread per stream. */
static TraceTestDb *
device_tracks_db (void)
{
  TraceTestDb *db = afg_test_db_new (AFG_TEST_DB_NPU);

  afg_test_db_add_with_connection (db, T1, 0, 100, "marker", 1);
  afg_test_db_exec (db, "UPDATE PYTORCH_API SET type = 50004 WHERE rowid = 1");
  afg_test_db_add_with_connection (db, T1, 10, 50, "aten::add", 1);
  afg_test_db_add_with_connection (db, T2, 5, 60, "aten::mul", 1);
  afg_test_db_add_with_connection (db, T1, 60, 90, "ProfilerStep#3", 2);
  afg_test_db_add_with_connection (db, T2, 100, 150, "launch", -1);
  afg_test_db_add_with_connection (db, T2, 160, 170, "launch2", 5);
  afg_test_db_link (db, 1, 100);
  afg_test_db_link (db, 2, 200);
  afg_test_db_link (db, -1, 300);
  afg_test_db_link (db, 5, AFG_TEST_NO_LINK);
  afg_test_db_add_task_on (db, 100, 110, 100, 0, 2);
  afg_test_db_add_task_on (db, 112, 120, 100, 1, 5);
  afg_test_db_add_task_on (db, 130, 140, 200, 0, 2);
  afg_test_db_add_task_on (db, 150, 160, AFG_TEST_NO_LINK, 0, 3);
  afg_test_db_add_task_on (db, 170, 180, 300, 0, 2);
  afg_test_db_add_task_on (db, 190, AFG_TEST_NULL, 100, 0, 2);
  return db;
}

static void
test_device_tracks (void)
{
  g_autoptr(TraceTestDb) db = device_tracks_db ();
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  g_autofree char *warning = NULL;
  guint32 dev0, dev1;
  const Event *s;

  document = afg_test_db_load_document (db);
  trace = export_trace (document, NULL, &warning);
  g_assert_null (warning);
  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", "other"), ==, 5);
  g_assert_cmpuint (check_flows (trace), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      s = find_event (trace, "s", "npu", i);
      g_assert_cmpuint (s->pid, ==, 1);
      g_assert_cmpuint (s->tid, ==, 1);
      g_assert_cmpint (trace->base_ns + s->ts, ==, 10);
    }
  dev0 = pid_of_process (trace, "NPU device 0");
  dev1 = pid_of_process (trace, "NPU device 1");
  g_assert_cmpuint (dev0, !=, dev1);
  g_assert_cmpuint (dev0, !=, 1);
  g_assert_cmpstr (meta_name (trace, "thread_name", dev0, 0), ==, "Stream 2");
  g_assert_cmpstr (meta_name (trace, "thread_name", dev0, 1), ==, "Stream 3");
  g_assert_cmpstr (meta_name (trace, "thread_name", dev1, 2), ==, "Stream 5");
  g_assert_cmpuint (find_event (trace, "X", "other", 1)->pid, ==, dev1);
  g_assert_cmpint (trace->base_ns + find_event (trace, "f", "npu", 1)->ts, ==, 112);
}

/* Without links to the host the same tasks are drawn on the same
 * tracks, with no flow and no warning of the trace's own (the load's
 * says why there are no links). */
static void
test_without_links (void)
{

  for (guint i = 0; i < AFG_TEST_N_UNLINKS; i++)
    {
      g_autoptr(TraceTestDb) db = device_tracks_db ();
      g_autoptr(AfgDocument) document = NULL;
      g_autoptr(Trace) trace = NULL;
      g_autofree char *warning = NULL;
      guint32 dev1;

      afg_test_db_exec (db, afg_test_unlinks[i]);
      document = afg_test_db_load_document (db);
      trace = export_trace (document, NULL, &warning);
      g_assert_null (warning);
      check_rows (trace, document, NULL);
      g_assert_cmpuint (count_events (trace, "X", "other"), ==, 5);
      g_assert_cmpuint (count_events (trace, "s", NULL), ==, 0);
      g_assert_cmpuint (count_events (trace, "f", NULL), ==, 0);
      dev1 = pid_of_process (trace, "NPU device 1");
      g_assert_cmpstr (meta_name (trace, "thread_name", dev1, 2), ==, "Stream 5");
    }
}

/* TASK without streamId: the host rows, no device track, a warning. */
static void
test_missing_stream (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  g_autofree char *warning = NULL;

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER);"
                        "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
                        "INSERT INTO TASK VALUES (100, 110, 0, 100);"
                        "INSERT INTO CONNECTION_IDS VALUES (1, 100)");
  afg_test_db_add_with_connection (db, T1, 10, 50, "aten::add", 1);
  document = afg_test_db_load_document (db);
  g_assert_nonnull (afg_document_get_npu_stats (document));
  trace = export_trace (document, NULL, &warning);
  g_assert_nonnull (warning);
  g_assert_nonnull (strstr (warning, "streamId"));
  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", "other"), ==, 0);
  g_assert_cmpuint (count_events (trace, "s", NULL), ==, 0);
}

/* No TASK table: no device track and nothing to warn about; a view named
 * TASK: no device track and a warning. */
static void
test_no_task_table (void)
{
  const AfgTestDbFlags flags[] = { AFG_TEST_DB_DEFAULT, AFG_TEST_DB_TASK_VIEW };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autoptr(TraceTestDb) db = afg_test_db_new (flags[i]);
      g_autoptr(AfgDocument) document = NULL;
      g_autoptr(Trace) trace = NULL;
      g_autofree char *warning = NULL;

      afg_test_db_add (db, T1, 10, 50, "aten::add");
      document = afg_test_db_load_document (db);
      trace = export_trace (document, NULL, &warning);
      g_assert_true ((warning != NULL) == (flags[i] == AFG_TEST_DB_TASK_VIEW));
      check_rows (trace, document, NULL);
      g_assert_cmpuint (count_events (trace, "X", "other"), ==, 0);
    }
}

/* --steps 2: rows cut to the step as the tree counts them; tasks by the
 * start of the row that launched them (unlinked ones by their own). */
static void
test_steps_scope (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const Event *step;
  AfgScope scope;

  afg_test_db_add_step_time (db, 1, 0, 100);
  afg_test_db_add_step_time (db, 2, 100, 200);
  afg_test_db_add (db, T1, 50, 150, "across");
  afg_test_db_add_with_connection (db, T1, 120, 130, "in step 2", 1);
  afg_test_db_add_with_connection (db, T1, 20, 30, "in step 1", 2);
  afg_test_db_link (db, 1, 100);
  afg_test_db_link (db, 2, 200);
  afg_test_db_add_task_on (db, 250, 260, 100, 0, 2);
  afg_test_db_add_task_on (db, 110, 115, 200, 0, 2);
  afg_test_db_add_task_on (db, 140, 145, -1, 0, 2);
  afg_test_db_add_task_on (db, 40, 45, -1, 0, 2);
  document = afg_test_db_load_document (db);
  g_assert_true (afg_scope_init_steps (&scope, document, 2, 2, &error));
  trace = export_trace (document, &scope, NULL);
  check_rows (trace, document, &scope);
  g_assert_cmpuint (count_events (trace, "X", NULL), ==, 2 + 1 + 2);
  g_assert_cmpint (trace->base_ns, ==, 100);
  step = find_event (trace, "X", "step", 0);
  g_assert_cmpstr (step->name, ==, "ProfilerStep#2");
  g_assert_null (find_event (trace, "X", "step", 1));
  g_assert_cmpint (trace->base_ns + find_event (trace, "X", "other", 0)->ts, ==, 250);
  g_assert_cmpint (trace->base_ns + find_event (trace, "X", "other", 1)->ts, ==, 140);
  g_assert_cmpuint (check_flows (trace), ==, 1);
}

/* The NPU counter's samples: "ns\tcompute\tcomm\tother\tfree", ns
 * absolute, in file order. */
static char *
counter_lines (const Trace *trace, guint32 *pid)
{
  JsonObject *root = json_node_get_object (json_parser_get_root (trace->parser));
  JsonArray *events = json_object_get_array_member (root, "traceEvents");
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *o = json_array_get_object_element (events, i);
      JsonObject *args;
      const Event *e = &g_array_index (trace->events, Event, i);

      if (!g_str_equal (e->ph, "C"))
        continue;
      g_assert_cmpstr (e->name, ==, "NPU");
      *pid = e->pid;
      args = json_object_get_object_member (o, "args");
      g_assert_cmpuint (json_object_get_size (args), ==, 4);
      g_string_append_printf (out, "%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t%"
                              G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\n", trace->base_ns + e->ts,
                              json_object_get_int_member (args, "compute_ns"), json_object_get_int_member (args, "comm_ns"),
                              json_object_get_int_member (args, "other_ns"), json_object_get_int_member (args, "free_ns"));
    }
  return g_string_free (out, FALSE);
}

/* Device: compute AI_CORE [100,200); a collective [150,400) and one of
 * its tasks [350,450); EVENT_RECORD [500,550). Steps 1 [0,500), 2
 * [500,1000) and, after a gap, 3 [1200,1300). */
static AfgDocument *
counter_document (AfgTestDb *db)
{
  afg_test_db_add_with_connection (db, T1, 0, 1300, "f", AFG_TEST_NULL);
  afg_test_db_add_with_connection (db, T1, 100, 300, "g", 1);
  afg_test_db_link (db, 1, 11);
  afg_test_db_add_typed_task (db, 100, 200, 11, "AI_CORE");
  afg_test_db_add_collective (db, 150, 400, 7, "hcom_allReduce__1_0_1");
  afg_test_db_add_typed_task (db, 350, 450, 7, "Notify Wait");
  afg_test_db_add_typed_task (db, 500, 550, AFG_TEST_NO_LINK, "EVENT_RECORD");
  afg_test_db_add_step_time (db, 1, 0, 500);
  afg_test_db_add_step_time (db, 2, 500, 1000);
  afg_test_db_add_step_time (db, 3, 1200, 1300);
  return afg_test_db_load_document (db);
}

/* One sample at each step's start with its split (compute before
 * communication before other), cleared where a step ends and no step
 * starts; on the steps' track; the scope's steps only. */
static void
test_device_counter (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = counter_document (db);
  g_autoptr(Trace) trace = export_trace (document, NULL, NULL);
  g_autoptr(Trace) step2 = NULL;
  g_autofree char *lines = NULL;
  g_autofree char *step2_lines = NULL;
  g_autoptr(GError) error = NULL;
  guint32 pid = 0;
  AfgScope scope;

  lines = counter_lines (trace, &pid);
  g_assert_cmpstr (lines, ==, "0\t100\t250\t0\t150\n"
                              "500\t0\t0\t50\t450\n"
                              "1000\t0\t0\t0\t0\n"
                              "1200\t0\t0\t0\t100\n"
                              "1300\t0\t0\t0\t0\n");
  g_assert_cmpuint (pid, ==, find_event (trace, "X", "step", 0)->pid);
  g_assert_true (afg_scope_init_steps (&scope, document, 2, 2, &error));
  step2 = export_trace (document, &scope, NULL);
  step2_lines = counter_lines (step2, &pid);
  g_assert_cmpstr (step2_lines, ==, "500\t0\t0\t50\t450\n1000\t0\t0\t0\t0\n");
}

/* Without a TASK table there is nothing to count: no counter. With one
 * that has no row, the device was free all the step, as JSON says. */
static void
test_no_device_counter (gconstpointer data)
{
  gboolean has_task = GPOINTER_TO_INT (data);
  g_autoptr(TraceTestDb) db = afg_test_db_new (has_task ? AFG_TEST_DB_NPU : AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  g_autofree char *lines = NULL;
  guint32 pid = 0;

  afg_test_db_add (db, T1, 0, 100, "f");
  afg_test_db_exec (db, "CREATE TABLE IF NOT EXISTS STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
                        "INSERT INTO STEP_TIME VALUES (1, 0, 100)");
  document = afg_test_db_load_document (db);
  trace = export_trace (document, NULL, NULL);
  lines = counter_lines (trace, &pid);
  g_assert_cmpstr (lines, ==, has_task ? "0\t0\t0\t0\t100\n100\t0\t0\t0\t0\n" : "");
  g_assert_cmpuint (count_events (trace, "X", "step"), ==, 1);
}

/* Epoch nanoseconds (1.7e18) and a duration past 32 bits, written from
 * integers: relative microseconds with exactly the nanosecond digits. */
static void
test_exact_times (void)
{
  const gint64 base = G_GINT64_CONSTANT (1700000000123456789);
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;

  afg_test_db_add (db, T1, base, base + G_GINT64_CONSTANT (4294967297), "long");
  afg_test_db_add (db, T1, base + 1, base + 1000, "short");
  afg_test_db_add (db, T1, base + 1234567, base + 1234568, "one ns");
  document = afg_test_db_load_document (db);
  trace = export_trace (document, NULL, NULL);
  g_assert_cmpint (trace->base_ns, ==, base);
  g_assert_nonnull (strstr (trace->text, "\"base_ns\":1700000000123456789"));
  g_assert_nonnull (strstr (trace->text, "\"name\":\"long\",\"cat\":\"unknown\",\"ts\":0.000,\"dur\":4294967.297}"));
  g_assert_nonnull (strstr (trace->text, "\"ts\":0.001,\"dur\":0.999}"));
  g_assert_nonnull (strstr (trace->text, "\"ts\":1234.567,\"dur\":0.001}"));
  check_rows (trace, document, NULL);
}

/* Untrusted values: a deviceId or streamId that is no integer puts the
 * task on a "?" track (sorted first); a connection id as whole decimal text links; a
 * task with a start that is no integer is not used. */
static void
test_hostile_values (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_NPU);
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  guint32 unknown;

  afg_test_db_add_with_connection (db, T1, 10, 50, "aten::add", 1);
  afg_test_db_link (db, 1, 100);
  afg_test_db_add_task_on (db, 100, 110, 100, 0, 2);
  afg_test_db_exec (db, "INSERT INTO TASK (startNs, endNs, deviceId, streamId, connectionId)"
                        " VALUES (120, 130, 'abc', NULL, '100'),"
                        " ('x140', 150, 0, 2, 100),"
                        " (160, 170, 0, 2.5, x'00')");
  document = afg_test_db_load_document (db);
  trace = export_trace (document, NULL, NULL);
  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", "other"), ==, 3);
  g_assert_cmpuint (check_flows (trace), ==, 2);
  unknown = pid_of_process (trace, "NPU device ?");
  g_assert_cmpstr (meta_name (trace, "thread_name", unknown, 0), ==, "Stream ?");
  g_assert_cmpstr (meta_name (trace, "thread_name", pid_of_process (trace, "NPU device 0"), 1), ==, "Stream ?");
}

/* The reader stops when cancelled, as the loader does. */
static void
test_cancel (void)
{
  g_autofree char *path = afg_test_sample_path ("ascend_pytorch_profiler_level0_rank0", ".db");
  g_autoptr(AfgDocument) document = load_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(AfgDeviceTasks) tasks = NULL;

  g_cancellable_cancel (cancellable);
  tasks = afg_trace_reader_read (document, cancellable, &error);
  g_assert_null (tasks);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* The sample's only step: its counter sample is its .breakdown.expected
 * line, then cleared at its end. */
static void
check_sample_counter (const char *name, const Trace *trace, const AfgDocument *document)
{
  g_autofree char *expected_path = afg_test_sample_path (name, ".breakdown.expected");
  g_autofree char *expected = NULL;
  g_autofree char *lines = NULL;
  g_autofree char *want = NULL;
  g_auto(GStrv) fields = NULL;
  guint n;
  const AfgStep *steps = afg_document_get_steps (document, &n);
  guint32 pid = 0;

  g_assert_true (g_file_get_contents (expected_path, &expected, NULL, NULL));
  fields = g_strsplit_set (expected, "\t\n", 6);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (fields[0], ==, "50");
  want = g_strdup_printf ("%" G_GINT64_FORMAT "\t%s\t%s\t%s\t%s\n%" G_GINT64_FORMAT "\t0\t0\t0\t0\n",
                          steps[0].start_ns, fields[1], fields[2], fields[3], fields[4], steps[0].end_ns);
  lines = counter_lines (trace, &pid);
  g_assert_cmpstr (lines, ==, want);
}

static void
test_sample (gconstpointer data)
{
  g_autofree char *path = afg_test_sample_path (data, ".db");
  g_autoptr(AfgDocument) document = load_path (path);
  g_autoptr(Trace) trace = export_trace (document, NULL, NULL);
  const AfgNpuStats *npu = afg_document_get_npu_stats (document);
  const AfgNpuKindStats *kinds = afg_document_get_npu_kind_stats (document);

  check_rows (trace, document, NULL);
  g_assert_cmpuint (count_events (trace, "X", "compute"), ==, kinds->compute_tasks);
  g_assert_cmpuint (count_events (trace, "X", "other"), ==, kinds->other_tasks);
  g_assert_cmpuint (count_events (trace, "X", "compute") + count_events (trace, "X", "other")
                    + count_events (trace, "X", "communication"), ==, npu->tasks);
  g_assert_cmpuint (count_events (trace, "X", "communication"), ==, 300);
  g_assert_cmpuint (check_flows (trace), ==, npu->tasks - npu->unlinked_tasks);
  g_assert_cmpuint (count_events (trace, "X", "step"), ==, 1);
  check_sample_counter (data, trace, document);
}

/* A 20,000-row profile from afg-gen-db: its trace is about 5 MB. */
static void
generate_db (const char *path)
{
  const char *gen[] = { g_getenv ("AFG_GEN_DB"), path, "20000", NULL };
  g_autoptr(GError) error = NULL;
  int status;

  g_spawn_sync (NULL, (char **) gen, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
}

/* The command line, on a generated profile whose trace takes several
 * pieces of the stream: -f in any case, the file's name. */
static void
test_cli (void)
{
  g_autofree char *dir = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (dir, "gen.db", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  g_autofree char *file = g_build_filename (out, "flamegraph.trace.json", NULL);
  const char *args[] = { "--export", "-f", "TRACE", "-q", "-o", out, db, NULL };
  g_autoptr(AfgDocument) document = NULL;
  g_autoptr(Trace) trace = NULL;
  const AfgNpuStats *npu;

  generate_db (db);
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, NULL), ==, 0);
  document = load_path (db);
  trace = trace_load (file);
  g_assert_cmpuint (strlen (trace->text), >, 2 << 20);
  check_rows (trace, document, NULL);
  npu = afg_document_get_npu_stats (document);
  g_assert_cmpuint (count_events (trace, "X", "compute") + count_events (trace, "X", "other")
                    + count_events (trace, "X", "communication"), ==, npu->tasks);
  g_assert_cmpuint (check_flows (trace), ==, npu->tasks - npu->unlinked_tasks);
  afg_test_rm_rf (dir);
}

/* The command line: a DB whose TASK cannot give device tracks still gets
 * its trace, with a warning (none under -q); a wrong -f names trace. */
static void
test_cli_messages (void)
{
  g_autoptr(TraceTestDb) db = afg_test_db_new (AFG_TEST_DB_DEFAULT);
  g_autofree char *out = afg_test_make_tmp_dir ();
  g_autofree char *file = g_build_filename (out, "flamegraph.trace.json", NULL);
  g_autofree char *err = NULL;
  g_autofree char *quiet_err = NULL;
  g_autofree char *bad_err = NULL;
  const char *args[] = { "--export", "-f", "trace", "-o", out, NULL, NULL };
  const char *quiet[] = { "--export", "-q", "-f", "trace", "-o", out, NULL, NULL };
  const char *bad[] = { "--export", "-f", "chrome", "-o", out, NULL, NULL };

  afg_test_db_exec (db, "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, connectionId INTEGER);"
                        "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER)");
  afg_test_db_add_with_connection (db, T1, 10, 50, "aten::add", 1);
  afg_test_db_close (db);
  args[5] = quiet[6] = bad[5] = db->path;
  g_assert_cmpint (afg_test_run_cli (args, FALSE, NULL, &err), ==, 0);
  g_assert_nonnull (strstr (err, "ascend-flamegraph: warning: no NPU device tracks: table TASK has no column deviceId\n"));
  g_assert_nonnull (strstr (err, "flamegraph.trace.json\n"));
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (afg_test_run_cli (quiet, FALSE, NULL, &quiet_err), ==, 0);
  g_assert_cmpstr (quiet_err, ==, "");
  g_assert_cmpint (afg_test_run_cli (bad, FALSE, NULL, &bad_err), ==, 2);
  g_assert_nonnull (strstr (bad_err, "hint: use -f html, -f json, -f folded or -f trace\n"));
  afg_test_rm_rf (out);
}

/* A write that fails halfway through the stream (a 2.5 MiB file size
 * limit: two 1 MB pieces pass, the third fails) is exit 3, and leaves
 * nothing in the output directory: not the temp file, not a part. */
static void
test_cli_write_fails (void)
{
  g_autofree char *work = afg_test_make_tmp_dir ();
  g_autofree char *db = g_build_filename (work, "gen.db", NULL);
  g_autofree char *out = g_build_filename (work, "out", NULL);
  g_autofree char *script = g_strdup_printf ("trap '' XFSZ; ulimit -f 2560; exec \"$0\" --export -q -f trace -o '%s' '%s'",
                                             out, db);
  const char *argv[] = { "/bin/sh", "-c", script, g_getenv ("AFG_EXE"), NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autofree char *err = NULL;
  int status;

  generate_db (db);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  g_assert_nonnull (strstr (err, "cannot write the output file"));
  dir = g_dir_open (out, 0, &error);
  g_assert_no_error (error);
  g_assert_null (g_dir_read_name (dir));
  afg_test_rm_rf (work);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/host-rows", test_host_rows);
  g_test_add_func ("/trace/depth-cut", test_depth_cut);
  g_test_add_func ("/trace/device-tracks", test_device_tracks);
  g_test_add_func ("/trace/without-links", test_without_links);
  g_test_add_func ("/trace/missing-stream", test_missing_stream);
  g_test_add_func ("/trace/no-task-table", test_no_task_table);
  g_test_add_func ("/trace/steps-scope", test_steps_scope);
  g_test_add_func ("/trace/exact-times", test_exact_times);
  g_test_add_func ("/trace/hostile-values", test_hostile_values);
  g_test_add_func ("/trace/cancel", test_cancel);
  g_test_add_func ("/trace/device-counter", test_device_counter);
  g_test_add_data_func ("/trace/no-device-counter", GINT_TO_POINTER (FALSE), test_no_device_counter);
  g_test_add_data_func ("/trace/empty-task-counter", GINT_TO_POINTER (TRUE), test_no_device_counter);
  g_test_add_data_func ("/trace/sample/level0", "ascend_pytorch_profiler_level0_rank0", test_sample);
  g_test_add_data_func ("/trace/sample/level1", "ascend_pytorch_profiler_level1_rank0", test_sample);
  g_test_add_func ("/trace/cli", test_cli);
  g_test_add_func ("/trace/cli-messages", test_cli_messages);
  g_test_add_func ("/trace/cli-write-fails", test_cli_write_fails);
  return g_test_run ();
}
