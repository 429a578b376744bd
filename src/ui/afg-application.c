/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-application"

#include "config.h"

#include <stdlib.h>

#include <glib/gi18n.h>

#include "afg-application.h"
#include "afg-test-control.h"
#include "afg-window.h"

struct _AfgApplication {
  GtkApplication parent_instance;
  GFile         *diff[2];  /* --diff A B: the first window compares them */
};

G_DEFINE_FINAL_TYPE (AfgApplication, afg_application, GTK_TYPE_APPLICATION)

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (data));
  const char *developers[] = { _("The Ascend Flame Graph authors"), NULL };

  gtk_show_about_dialog (window,
                         "program-name", _("Ascend Flame Graph"),
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Host CPU flame graphs from Ascend PyTorch profiler databases"),
                         "license-type", GTK_LICENSE_MIT_X11,
                         "authors", developers,
                         NULL);
}

/* Closes the windows first, as Ctrl+W does, so each saves its size. */
static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (data)));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
  g_application_quit (G_APPLICATION (data));
}

static void
set_accels (GtkApplication *app)
{
  static const struct { const char *action; const char *accel, *also; } accels[] = {
    { "win.open", "<Control>o" },
    { "win.open-folder", "<Control><Shift>o" },
    { "win.compare", "<Control>d" },
    { "win.export", "<Control>e" },
    { "win.search", "<Control>f" },
    { "win.next-match", "F3" },
    { "win.previous-match", "<Shift>F3" },
    { "win.toggle-functions", "<Control><Shift>f" },
    { "win.toggle-weight", "<Control>n" },
    { "win.close", "<Control>w" },
    { "win.pop-transform", "<Control>z" },
    /* F1, GNOME's key for help: the shortcuts are this app's help. */
    { "win.show-help-overlay", "<Control>question", "F1" },
    { "app.quit", "<Control>q" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (app, accels[i].action,
                                           (const char *[]) { accels[i].accel, accels[i].also, NULL });
}

static void
load_css (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/ascend_flamegraph/AscendFlameGraph/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
afg_application_startup (GApplication *app)
{
  static const GActionEntry entries[] = {
    { "about", about_action },
    { "quit", quit_action },
  };

  G_APPLICATION_CLASS (afg_application_parent_class)->startup (app);
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  set_accels (GTK_APPLICATION (app));
  load_css ();
  afg_test_control_start (GTK_APPLICATION (app));
}

static void
afg_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  AfgApplication *self = AFG_APPLICATION (app);

  if (window == NULL)
    window = GTK_WINDOW (afg_window_new (GTK_APPLICATION (app)));
  if (self->diff[0] != NULL)
    afg_window_compare (AFG_WINDOW (window), self->diff[0], self->diff[1]);
  g_clear_object (&self->diff[0]);
  g_clear_object (&self->diff[1]);
  gtk_window_present (window);
}

/* The path with symlinks resolved, so that a link to a DB and the DB
 * itself are the same file; a path that does not resolve stays as it is. */
static char *
canonical_path (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  char *real = path ? realpath (path, NULL) : NULL;
  char *copy;

  if (real == NULL)
    return g_steal_pointer (&path);
  copy = g_strdup (real);
  free (real);
  return copy;
}

static gboolean
same_file (GFile *a, GFile *b)
{
  g_autofree char *path_a = NULL;
  g_autofree char *path_b = NULL;

  if (g_file_equal (a, b))
    return TRUE;
  path_a = canonical_path (a);
  path_b = canonical_path (b);
  return path_a != NULL && g_strcmp0 (path_a, path_b) == 0;
}

/* The window of FILE (loading, showing or failed on it), else the most
 * recently used window on its start page, else NULL. */
static AfgWindow *
find_window (GtkApplication *app, GFile *file)
{
  AfgWindow *empty = NULL;

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      GFile *shown;

      /* A comparison shows A's file, but not as A's window. */
      if (!AFG_IS_WINDOW (l->data) || afg_window_is_comparing (l->data))
        continue;
      shown = afg_window_get_file (l->data);
      if (shown != NULL && same_file (shown, file))
        return l->data;
      /* A job's window shows one of its ranks, but stands for the folder. */
      if (afg_window_get_job_folder (l->data) != NULL
          && same_file (afg_window_get_job_folder (l->data), file))
        return l->data;
      if (shown == NULL && empty == NULL)
        empty = l->data;
    }
  return empty;
}

/* Opening a file twice, from a file manager or a second launch, brings its
 * window forward; only a failed load is tried again. */
static void
afg_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_file_get_basename (files[i]);
      AfgWindow *window = find_window (GTK_APPLICATION (app), files[i]);

      if (window == NULL)
        {
          g_debug ("open %s: in a new window", name);
          window = afg_window_new (GTK_APPLICATION (app));
          afg_window_open (window, files[i]);
        }
      else if (afg_window_get_file (window) == NULL || afg_window_has_failed (window))
        {
          g_debug ("open %s: in an open window", name);
          afg_window_open (window, files[i]);
        }
      else
        g_debug ("open %s: already open", name);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
afg_application_class_init (AfgApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = afg_application_startup;
  app_class->activate = afg_application_activate;
  app_class->open = afg_application_open;
}

static void
afg_application_init (AfgApplication *self)
{
}

AfgApplication *
afg_application_new (void)
{
  return g_object_new (AFG_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/ascend_flamegraph/AscendFlameGraph",
                       NULL);
}

/* Its own instance (not unique): a running one would only be activated,
 * without the two files. */
int
afg_application_run_diff (const char *program, const char *a, const char *b)
{
  g_autoptr(AfgApplication) app = NULL;
  char *argv[] = { (char *) program, NULL };

  g_set_application_name (_("Ascend Flame Graph"));
  gtk_window_set_default_icon_name (APP_ID);
  app = afg_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  app->diff[0] = g_file_new_for_commandline_arg (a);
  app->diff[1] = g_file_new_for_commandline_arg (b);
  return g_application_run (G_APPLICATION (app), 1, argv);
}

int
afg_application_run (int argc, char **argv)
{
  g_autoptr(AfgApplication) app = NULL;

  g_set_application_name (_("Ascend Flame Graph"));
  gtk_window_set_default_icon_name (APP_ID);
  app = afg_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
