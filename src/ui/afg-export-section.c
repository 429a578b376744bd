/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-diff-writers.h"
#include "afg-export-section.h"
#include "afg-window-private.h"
#include "afg-writers.h"

struct _AfgExportSection {
  GObject    parent_instance;

  AfgWindow *window;    /* not a reference: the window keeps the section */
  AfgWorker *worker;
  GFile     *exported;  /* the last file written for what is on screen */
};

G_DEFINE_FINAL_TYPE (AfgExportSection, afg_export_section, G_TYPE_OBJECT)

/* The name picks the format, as the CLI's file names do: *.trace.json the
 * Chrome trace (-f trace, which also reads each device task from the DB),
 * *.json the JSON v2 export, *.folded or *.txt folded stacks, anything
 * else the HTML page. */
static AfgFormat
format_for_name (const char *path)
{
  if (g_str_has_suffix (path, ".trace.json"))
    return AFG_FORMAT_TRACE;
  if (g_str_has_suffix (path, ".json"))
    return AFG_FORMAT_JSON;
  if (g_str_has_suffix (path, ".folded") || g_str_has_suffix (path, ".txt"))
    return AFG_FORMAT_FOLDED;
  return AFG_FORMAT_HTML;
}

/* A page opens in the browser; the other formats in whatever the
 * desktop opens them with (a trace is not a page: it needs a viewer). */
static const char *
open_label (const char *path)
{
  return format_for_name (path) == AFG_FORMAT_HTML ? _("Open in Browser") : _("Open File");
}

typedef struct {
  GFile        *file;
  char         *path;
  AfgTree      *tree;
  AfgWeight     weight;   /* of the widths shown: what folded stacks weigh */
  AfgDiffShape *diff;     /* or NULL */
  char         *warning; /* set by the thread: what the file lacks */
} ExportRequest;

/* As the command line exports with --weight W (and --kernels where W has
 * kernel leaves, as the graph shows them): a trace reads the device tasks
 * again, and a DB that cannot give them gets its host tracks and a
 * warning. A trace shows every instant, so the NPU-idle scope has none,
 * as --npu-idle -f trace is refused. */
static gboolean
export_file (ExportRequest *req, GCancellable *cancellable, GError **error)
{
  AfgExportOptions options = { .format = format_for_name (req->path), .weight = req->weight,
                               .kernels = afg_weight_has_kernels (req->weight), .cancellable = cancellable };

  if (options.format == AFG_FORMAT_TRACE && afg_tree_get_scope (req->tree)->npu_idle)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           _("a trace shows every instant, not only those the NPU is idle: "
                             "turn “While NPU idle” off to write one"));
      return FALSE;
    }
  return afg_export (req->tree, &options, req->path, &req->warning, error);
}

static void
export_request_free (gpointer data)
{
  ExportRequest *req = data;

  g_clear_object (&req->file);
  g_free (req->path);
  g_clear_pointer (&req->tree, afg_tree_unref);
  g_clear_pointer (&req->diff, afg_diff_shape_unref);
  g_free (req->warning);
  g_free (req);
}

/* A diff on screen is written as --diff A B --export writes it. The
 * result is the file written. */
static gpointer
export_in_thread (gpointer data, GCancellable *cancellable, GError **error)
{
  ExportRequest *req = data;
  gboolean done;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  done = req->diff != NULL ? afg_diff_export_to_file (req->diff, format_for_name (req->path), req->path, error)
                           : export_file (req, cancellable, error);
  return done ? g_object_ref (req->file) : NULL;
}

static void
on_exported (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgExportSection *self = owner;
  ExportRequest *req = data;
  g_autofree char *message = NULL;
  g_autofree char *name = NULL;

  if (result == NULL)
    {
      message = g_strdup_printf (_("Could not export: %s"), error->message);
      _afg_window_show_notice (self->window, message, NULL);
      return;
    }
  g_set_object (&self->exported, result);
  name = g_file_get_parse_name (self->exported);
  /* As the command line warns: the trace has the host tracks alone. */
  message = req->warning != NULL ? g_strdup_printf (_("Exported the flame graph to %s — %s"), name, req->warning)
                                 : g_strdup_printf (_("Exported the flame graph to %s"), name);
  _afg_window_show_notice (self->window, message, open_label (req->path));
}

static const AfgWorkerFuncs export_funcs = {
  .name = "afg-export",
  .run = export_in_thread,
  .done = on_exported,
  .free_result = g_object_unref,
};

static void
export_to (AfgWindow *self, GFile *file)
{
  ExportRequest *req = g_new0 (ExportRequest, 1);

  req->file = g_object_ref (file);
  req->path = g_file_get_path (file);
  req->tree = afg_tree_ref (_afg_window_get_tree (self));
  req->weight = afg_session_get_shown_weight (self->session);
  if (_afg_window_is_comparing (self))
    req->diff = afg_diff_shape_ref (afg_diff_view_get_shape (self->diff_view));
  afg_worker_start (self->export->worker, &export_funcs, req, export_request_free);
}

static void
on_chooser_response (GtkNativeDialog *chooser, int response, AfgWindow *self)
{
  g_autoptr(GFile) file = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->chooser);
  if (file != NULL && _afg_window_get_tree (self) != NULL)
    export_to (self, file);
}

/* Beside the DB (A in a diff), named after it: ascend_pytorch_profiler_0.db proposes
 * ascend_pytorch_profiler_0.html, not flamegraph.html in whatever the
 * program's working directory is. */
static void
propose_file (AfgWindow *self, GtkFileChooser *chooser)
{
  g_autoptr(GFile) db = g_file_new_for_path (afg_document_get_source_path (afg_tree_get_document (_afg_window_get_tree (self))));
  g_autoptr(GFile) folder = g_file_get_parent (db);
  g_autofree char *base = g_file_get_basename (db);
  g_autofree char *name = NULL;

  if (g_str_has_suffix (base, ".db"))
    base[strlen (base) - 3] = '\0';
  /* A diff's page is not A's. */
  name = g_strconcat (base, _afg_window_is_comparing (self) ? "-diff.html" : ".html", NULL);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (chooser, folder, NULL);
  gtk_file_chooser_set_current_name (chooser, name);
}

/* What was exported is not what a new tree on screen shows. */
static void
on_tree_changed (AfgExportSection *self)
{
  g_clear_object (&self->exported);
}

static void
afg_export_section_dispose (GObject *object)
{
  AfgExportSection *self = AFG_EXPORT_SECTION (object);

  g_clear_object (&self->worker);
  g_clear_object (&self->exported);

  G_OBJECT_CLASS (afg_export_section_parent_class)->dispose (object);
}

static void
afg_export_section_class_init (AfgExportSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_export_section_dispose;
}

static void
afg_export_section_init (AfgExportSection *self)
{
  self->worker = afg_worker_new (self);
}

AfgExportSection *
afg_export_section_new (AfgWindow *window)
{
  AfgExportSection *self = g_object_new (AFG_TYPE_EXPORT_SECTION, NULL);

  self->window = window;
  g_signal_connect_object (window->session, "notify::tree", G_CALLBACK (on_tree_changed), self, G_CONNECT_SWAPPED);
  return self;
}

GFile *
afg_export_section_get_exported (AfgExportSection *self)
{
  g_return_val_if_fail (AFG_IS_EXPORT_SECTION (self), NULL);

  return self->exported;
}

void
afg_export_section_export (AfgExportSection *section)
{
  AfgWindow *self;

  g_return_if_fail (AFG_IS_EXPORT_SECTION (section));
  self = section->window;
  g_return_if_fail (_afg_window_get_tree (self) != NULL);

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export Flame Graph"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("HTML page (*.html)"), "*.html");
  /* A diff has no timeline to trace. */
  if (!_afg_window_is_comparing (self))
    _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("Chrome trace for Perfetto (*.trace.json)"), "*.trace.json");
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("JSON (*.json)"), "*.json");
  _afg_window_add_filter (GTK_FILE_CHOOSER (self->chooser), _("Folded stacks (*.folded)"), "*.folded");
  propose_file (self, GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}
