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
#include "afg-task-kinds.h"
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
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_strcmp0 (text, format_names[i]) == 0)
      {
        *format = i;
        return TRUE;
      }
  return FALSE;
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
  for (guint i = 0; i < G_N_ELEMENTS (weight_names); i++)
    if (g_strcmp0 (text, weight_names[i]) == 0)
      {
        *weight = i;
        return TRUE;
      }
  return FALSE;
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

static GString *
serialize (const AfgTree *whole, AfgFormat format, AfgWeight weight, gboolean kernels, GError **error)
{
  g_autoptr(AfgTree) tree = with_durations (whole, format, error);
  GString *out;

  if (tree == NULL)
    return NULL;
  /* The JSON of the generated profiles takes about 260 bytes a node. */
  out = afg_huge_string_new (4096 + 320 * (gsize) afg_tree_get_n_nodes (tree));

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

/* Written, not yet committed. */
static AfgAtomicFile *
write_to_file (const AfgTree *tree, AfgFormat format, AfgWeight weight, gboolean kernels,
               const AfgDeviceTasks *tasks, const char *path, GError **error)
{
  if (!check_output_path (tree, path, error))
    return NULL;
  if (format == AFG_FORMAT_TRACE)
    return write_trace (tree, tasks, path, error);
  return write_serialized (tree, format, weight, kernels, path, error);
}

static gboolean
export_to_file (const AfgTree *tree, AfgFormat format, AfgWeight weight, gboolean kernels,
                const AfgDeviceTasks *tasks, const char *path, GError **error)
{
  AfgAtomicFile *file = write_to_file (tree, format, weight, kernels, tasks, path, error);
  gint64 t0 = g_get_monotonic_time ();
  gboolean ok = file != NULL && afg_atomic_file_commit (file, error);

  g_debug ("commit %.3f s", (g_get_monotonic_time () - t0) / 1e6);
  return ok;
}

gboolean
afg_export_to_file (const AfgTree *tree, AfgFormat format, const char *path, GError **error)
{
  return export_to_file (tree, format, AFG_WEIGHT_HOST, FALSE, NULL, path, error);
}

gboolean
afg_export_to_dir (const AfgTree *tree, AfgFormat format, const char *dir, char **out_path,
                   GError **error)
{
  return afg_export_to_dir_weighted (tree, format, AFG_WEIGHT_HOST, dir, out_path, error);
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

static gboolean
export_to_dir (const AfgTree *tree, AfgFormat format, AfgWeight weight, gboolean kernels,
               const AfgDeviceTasks *tasks, const char *dir, char **out_path, GError **error)
{
  g_autofree char *path = g_build_filename (dir, afg_format_file_name (format), NULL);

  if (!make_dir (dir, error) || !export_to_file (tree, format, weight, kernels, tasks, path, error))
    return FALSE;
  if (out_path != NULL)
    *out_path = g_steal_pointer (&path);
  return TRUE;
}

gboolean
afg_export_to_dir_weighted (const AfgTree *tree, AfgFormat format, AfgWeight weight, const char *dir,
                            char **out_path, GError **error)
{
  return export_to_dir (tree, format, weight, FALSE, NULL, dir, out_path, error);
}

gboolean
afg_export_to_dir_kernels (const AfgTree *tree, AfgFormat format, AfgWeight weight, gboolean kernels,
                           const char *dir, char **out_path, GError **error)
{
  return export_to_dir (tree, format, weight, kernels, NULL, dir, out_path, error);
}

AfgAtomicFile *
afg_export_to_dir_pending (const AfgTree *tree, AfgFormat format, AfgWeight weight, const char *dir,
                           GError **error)
{
  g_autofree char *path = g_build_filename (dir, afg_format_file_name (format), NULL);

  if (!make_dir (dir, error))
    return NULL;
  return write_to_file (tree, format, weight, FALSE, NULL, path, error);
}

gboolean
afg_export_trace_to_file (const AfgTree *tree, const AfgDeviceTasks *tasks, const char *path, GError **error)
{
  return export_to_file (tree, AFG_FORMAT_TRACE, AFG_WEIGHT_HOST, FALSE, tasks, path, error);
}

gboolean
afg_export_check_path (const AfgTree *tree, const char *path, GError **error)
{
  return check_output_path (tree, path, error);
}

gboolean
afg_export_trace_to_dir (const AfgTree *tree, const AfgDeviceTasks *tasks, const char *dir, char **out_path,
                         GError **error)
{
  return export_to_dir (tree, AFG_FORMAT_TRACE, AFG_WEIGHT_HOST, FALSE, tasks, dir, out_path, error);
}
