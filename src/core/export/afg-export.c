/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-export"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-atomic-file.h"
#include "afg-error.h"
#include "afg-huge.h"
#include "afg-made-dirs.h"
#include "afg-names.h"
#include "afg-task-kinds.h"
#include "afg-trace-reader.h"
#include "afg-tree-builder.h"
#include "afg-tree-transform.h"
#include "afg-writers.h"

static const char * const format_names[] = { "html", "json", "folded", "trace" };
static const char * const file_names[] = { "flamegraph.html", "flamegraph.json", "flamegraph.folded",
                                           "flamegraph.trace.json" };

const char *
afg_format_file_name (AfgFormat format)
{
  g_return_val_if_fail (format <= AFG_FORMAT_TRACE, NULL);
  return file_names[format];
}

gboolean
afg_format_from_string (const char *text, AfgFormat *format)
{
  guint i;

  if (!afg_names_find (format_names, G_N_ELEMENTS (format_names), text, &i))
    return FALSE;
  *format = i;
  return TRUE;
}

static const char * const weight_names[] = { "host", "npu", "compute", "comm", "exposed" };
static const AfgColumn self_columns[] = { AFG_COLUMN_SELF_NS, AFG_COLUMN_NPU_SELF_NS, AFG_COLUMN_NPU_COMPUTE_SELF_NS,
                                          AFG_COLUMN_COMM_SELF_NS, AFG_COLUMN_COMM_EXPOSED_SELF_NS };
static const AfgColumn total_columns[] = { AFG_COLUMN_TOTAL_NS, AFG_COLUMN_NPU_TOTAL_NS,
                                           AFG_COLUMN_NPU_COMPUTE_TOTAL_NS, AFG_COLUMN_COMM_TOTAL_NS,
                                           AFG_COLUMN_COMM_EXPOSED_TOTAL_NS };
G_STATIC_ASSERT (G_N_ELEMENTS (weight_names) == AFG_N_WEIGHTS);

gboolean
afg_weight_from_string (const char *text, AfgWeight *weight)
{
  guint i;

  if (!afg_names_find (weight_names, G_N_ELEMENTS (weight_names), text, &i))
    return FALSE;
  *weight = i;
  return TRUE;
}

const char *
afg_weight_to_string (AfgWeight weight)
{
  g_return_val_if_fail (weight < AFG_N_WEIGHTS, NULL);
  return weight_names[weight];
}

AfgColumn
afg_weight_get_self_column (AfgWeight weight)
{
  g_return_val_if_fail (weight < AFG_N_WEIGHTS, AFG_COLUMN_SELF_NS);
  return self_columns[weight];
}

AfgColumn
afg_weight_get_total_column (AfgWeight weight)
{
  g_return_val_if_fail (weight < AFG_N_WEIGHTS, AFG_COLUMN_TOTAL_NS);
  return total_columns[weight];
}

gboolean
afg_weight_from_total_column (AfgColumn column, AfgWeight *weight)
{
  for (guint i = 0; i < G_N_ELEMENTS (total_columns); i++)
    if (total_columns[i] == column)
      {
        *weight = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
afg_weight_has_kernels (AfgWeight weight)
{
  return weight == AFG_WEIGHT_COMPUTE || weight == AFG_WEIGHT_COMM || weight == AFG_WEIGHT_EXPOSED;
}

gint64
afg_weight_kernel_value (AfgWeight weight, const AfgNpuKernel *kernel)
{
  if (weight == AFG_WEIGHT_COMPUTE)
    return kernel->kind == AFG_TASK_KIND_COMPUTE ? kernel->ns : 0;
  if (kernel->kind != AFG_TASK_KIND_COMMUNICATION)
    return 0;
  return weight == AFG_WEIGHT_COMM ? kernel->ns : weight == AFG_WEIGHT_EXPOSED ? kernel->exposed_ns : 0;
}

/* JSON v2 and the page always carry the durations: a tree built without
 * them (the window's) is built again with them, same scope and flags, so
 * that the window's export is the command line's byte for byte. */
static AfgTree *
with_durations (const AfgTree *tree, AfgFormat format, GError **error)
{
  g_autoptr(AfgTree) built = NULL;

  if (format == AFG_FORMAT_FOLDED || afg_tree_has_column (tree, AFG_COLUMN_DURATION_MIN))
    return afg_tree_ref ((AfgTree *) tree);
  built = afg_tree_build (afg_tree_get_document (tree), afg_tree_get_scope (tree),
                          afg_tree_get_flags (tree) | AFG_TREE_DURATIONS, NULL, error);
  /* A transformed tree is transformed again, the same way. */
  if (built == NULL || afg_tree_get_transforms (tree) == NULL)
    return g_steal_pointer (&built);
  return afg_tree_transform (built, afg_tree_get_transforms (tree), NULL, error);
}

/* More than the output will take: a buffer grown by realloc copies what
 * it holds into new pages, while the untouched end of a reservation
 * costs no memory (huge pages fault in as they are written). A node
 * takes its name, category and braces, then each column as "name":
 * value; a kernel leaf about 100 bytes. */
static gsize
estimate_bytes (const AfgTree *tree)
{
  guint32 n_nodes = afg_tree_get_n_nodes (tree);
  gsize per_node = 256, kernels = 0;
  guint n;

  for (guint c = 0; c < AFG_N_COLUMNS; c++)
    if (afg_tree_has_column (tree, c))
      per_node += strlen (afg_column_get_info (c)->key) + 24;
  for (guint32 node = 0; node < n_nodes; node++)
    if (afg_tree_get_kernels (tree, node, &n) != NULL)
      kernels += n;
  return 4096 + per_node * n_nodes + 128 * kernels;
}

static GString *
serialize (const AfgTree *whole, AfgFormat format, AfgWeight weight, gboolean kernels, GError **error)
{
  g_autoptr(AfgTree) tree = with_durations (whole, format, error);
  GString *out;

  if (tree == NULL)
    return NULL;
  out = afg_huge_string_new (estimate_bytes (tree));

  switch (format)
    {
    case AFG_FORMAT_JSON:
      afg_json_write (tree, out);
      break;
    case AFG_FORMAT_FOLDED:
      afg_folded_write_weighted (tree, weight, kernels, out);
      break;
    case AFG_FORMAT_HTML:
    default:
      if (!afg_html_write (tree, out, error))
        {
          g_string_free (out, TRUE);
          return NULL;
        }
    }
  return out;
}

static gboolean
fail_path (GError **error, GFileError code, const char *path, const char *reason)
{
  return afg_error_set_path (error, G_FILE_ERROR, code, path, reason);
}

gboolean
afg_export_write_data (const char *path, const char *data, gsize len, GError **error)
{
  AfgAtomicFile *file = afg_atomic_file_open (path, error);

  if (file == NULL)
    return FALSE;
  if (!afg_atomic_file_write (file, data, len, error))
    {
      afg_atomic_file_abort (file);
      return FALSE;
    }
  return afg_atomic_file_commit (file, error);
}

static gboolean
is_same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean
check_output_path (const AfgTree *tree, const char *path, GError **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return fail_path (error, G_FILE_ERROR_ISDIR, path, _("is a directory"));
  if (is_same_file (path, afg_document_get_source_path (afg_tree_get_document (tree))))
    return fail_path (error, G_FILE_ERROR_EXIST, path,
                      _("is the profiler database itself; it is never overwritten"));
  return TRUE;
}

static gboolean
write_piece (const char *data, gsize len, gpointer file, GError **error)
{
  return afg_atomic_file_write (file, data, len, error);
}

/* Streamed: the trace of a large profile is gigabytes. */
static AfgAtomicFile *
write_trace (const AfgTree *tree, const AfgDeviceTasks *tasks, const char *path, GError **error)
{
  AfgAtomicFile *file = afg_atomic_file_open (path, error);

  if (file != NULL && !afg_trace_write (tree, tasks, write_piece, file, error))
    g_clear_pointer (&file, afg_atomic_file_abort);
  return file;
}

/* Held whole, a JSON export's text (100 MB for 200k frames) is faulted
 * in for nothing and then copied to the file from memory, not from the
 * cache: most of what a job spent beyond its ranks. Held, it lets a
 * second core make the functions' text beside the threads'. */
static AfgAtomicFile *
write_streamed_json (const AfgTree *whole, const char *path, GError **error)
{
  g_autoptr(AfgTree) tree = with_durations (whole, AFG_FORMAT_JSON, error);
  AfgAtomicFile *file;
  gint64 t0 = g_get_monotonic_time ();

  if (tree == NULL || (file = afg_atomic_file_open (path, error)) == NULL)
    return NULL;
  if (!afg_json_write_streamed (tree, write_piece, file, error))
    g_clear_pointer (&file, afg_atomic_file_abort);
  g_debug ("serialize and write %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  return file;
}

static AfgAtomicFile *
write_serialized (const AfgTree *tree, AfgFormat format, AfgWeight weight, gboolean kernels, const char *path,
                  GError **error)
{
  g_autoptr(GString) out = NULL;
  AfgAtomicFile *file;
  gint64 t0 = g_get_monotonic_time (), t1;

  if ((out = serialize (tree, format, weight, kernels, error)) == NULL)
    return NULL;
  t1 = g_get_monotonic_time ();
  if ((file = afg_atomic_file_open (path, error)) != NULL && !afg_atomic_file_write (file, out->str, out->len, error))
    g_clear_pointer (&file, afg_atomic_file_abort);
  g_debug ("serialize %.3f s, write %.3f s", (t1 - t0) / 1e6, (g_get_monotonic_time () - t1) / 1e6);
  return file;
}

/* The trace reads the device tasks one by one from the DB again. */
static AfgAtomicFile *
write_trace_of_document (const AfgTree *tree, GCancellable *cancellable, const char *path, char **warning,
                         GError **error)
{
  g_autoptr(AfgDeviceTasks) tasks = afg_trace_reader_read (afg_tree_get_document (tree), cancellable, error);

  if (tasks == NULL)
    return NULL;
  if (warning != NULL)
    *warning = g_strdup (tasks->warning);
  return write_trace (tree, tasks, path, error);
}

/* Written, not yet committed. */
static AfgAtomicFile *
write_to_file (const AfgTree *tree, const AfgExportOptions *options, const char *path, char **warning,
               GError **error)
{
  if (!check_output_path (tree, path, error))
    return NULL;
  if (options->format == AFG_FORMAT_TRACE)
    return write_trace_of_document (tree, options->cancellable, path, warning, error);
  if (options->format == AFG_FORMAT_JSON && options->streamed)
    return write_streamed_json (tree, path, error);
  return write_serialized (tree, options->format, options->weight, options->kernels, path, error);
}

static gboolean
commit (AfgAtomicFile *file, GError **error)
{
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok = file != NULL && afg_atomic_file_commit (file, error);

  g_debug ("commit %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  return ok;
}

gboolean
afg_export (const AfgTree *tree, const AfgExportOptions *options, const char *path, char **warning,
            GError **error)
{
  g_return_val_if_fail (tree != NULL && options != NULL && path != NULL, FALSE);

  return commit (write_to_file (tree, options, path, warning, error), error);
}

static gboolean
make_dir (const char *dir, GError **error)
{
  int saved;

  if (g_mkdir_with_parents (dir, 0755) == 0)
    return TRUE;
  saved = errno;
  return afg_error_set_errno (error, dir, _("cannot create the output directory"), saved);
}

gboolean
afg_export_to_dir (const AfgTree *tree, const AfgExportOptions *options, const char *dir, char **out_path,
                   char **warning, GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *made = NULL;

  g_return_val_if_fail (tree != NULL && options != NULL && dir != NULL, FALSE);

  path = g_build_filename (dir, afg_format_file_name (options->format), NULL);
  made = afg_made_dirs_first (dir);
  if (!make_dir (dir, error))
    return FALSE;
  if (!afg_export (tree, options, path, warning, error))
    {
      /* A failed export leaves nothing behind, not the folders it made. */
      afg_made_dirs_remove (dir, made);
      return FALSE;
    }
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}

AfgAtomicFile *
afg_export_to_dir_pending (const AfgTree *tree, const AfgExportOptions *options, const char *dir,
                           GError **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (tree != NULL && options != NULL && dir != NULL, NULL);

  path = g_build_filename (dir, afg_format_file_name (options->format), NULL);
  if (!make_dir (dir, error))
    return NULL;
  return write_to_file (tree, options, path, NULL, error);
}

gboolean
afg_export_check_path (const AfgTree *tree, const char *path, GError **error)
{
  return check_output_path (tree, path, error);
}
