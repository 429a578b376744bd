/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-test-control"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "afg-flame-view.h"
#include "afg-test-control.h"
#include "afg-window.h"
#include "afg-worker.h"

/* End-to-end tests drive the app through this channel rather than with
 * pointer clicks at guessed pixels, and wait on a barrier rather than
 * sleep: one command per line on stdin, run in order on the active
 * window. */

typedef struct {
  GtkApplication *app;
  GString        *pending;  /* read, up to a line's end not yet read */
} Control;

typedef struct {
  GWeakRef window;
  guint    seq;
} Barrier;

static guint passed_seq;

static void
barrier_free (Barrier *barrier)
{
  g_weak_ref_clear (&barrier->window);
  g_free (barrier);
}

/* Low priority: after the frame's layout and drawing and every idle the
 * commands before the barrier queued. */
static gboolean
barrier_pass (gpointer data)
{
  Barrier *barrier = data;
  g_autoptr(GtkWidget) window = g_weak_ref_get (&barrier->window);

  passed_seq = barrier->seq;
  if (window != NULL)
    afg_window_report_state (AFG_WINDOW (window));
  return G_SOURCE_REMOVE;
}

static void
barrier_pass_later (Barrier *barrier)
{
  g_idle_add_full (G_PRIORITY_LOW, barrier_pass, barrier, (GDestroyNotify) barrier_free);
}

/* Once: its destroy notify passes the barrier, after this frame or when
 * the window goes first. */
static gboolean
barrier_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  return G_SOURCE_REMOVE;
}

/* The round trip to the X server first: input a test sent before the
 * barrier (xdotool) is then in the app's queue, and the next frame,
 * which the tick waits for, delivers it. */
static void
run_barrier (GtkWidget *window, const char *arg)
{
  Barrier *barrier = g_new0 (Barrier, 1);

  barrier->seq = (guint) strtoul (arg, NULL, 10);
  g_weak_ref_init (&barrier->window, window);
  gdk_display_sync (gtk_widget_get_display (window));
  if (gtk_widget_get_mapped (window))
    gtk_widget_add_tick_callback (window, barrier_tick, barrier, (GDestroyNotify) barrier_pass_later);
  else
    barrier_pass_later (barrier);
}

/* "NAME" or "NAME PARAM", PARAM in GVariant text format. From the focus
 * widget when there is one, so that its own actions are found too. */
static void
run_action (GtkWidget *window, const char *arg)
{
  g_auto(GStrv) parts = g_strsplit (arg, " ", 2);
  g_autoptr(GVariant) param = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  if (parts[0] != NULL && parts[1] != NULL)
    param = g_variant_parse (NULL, parts[1], NULL, NULL, &error);
  if (error != NULL)
    {
      g_message ("action %s: %s", parts[0], error->message);
      return;
    }
  if (!gtk_widget_activate_action_variant (focus ? focus : window, parts[0] ? parts[0] : "", param))
    g_message ("no action '%s'", arg);
}

/* The search entry's text, as typing it after Ctrl+F sets it. */
static void
run_search (GtkWidget *window, const char *arg)
{
  GtkWidget *focus;

  gtk_widget_activate_action (window, "win.search", NULL);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  if (!GTK_IS_EDITABLE (focus))
    {
      g_message ("win.search focused no text entry");
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (focus), arg);
  gtk_editable_set_position (GTK_EDITABLE (focus), -1);
}

/* The first widget of @type below @widget that @shown accepts
 * (gtk_widget_get_visible, or gtk_widget_get_mapped: on screen). */
static GtkWidget *
find_widget (GtkWidget *widget, GType type, gboolean (*shown) (GtkWidget *))
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && shown (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type, shown);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkSelectionModel *
list_model_of (GtkWidget *widget)
{
  GtkWidget *list = find_widget (widget, GTK_TYPE_LIST_VIEW, gtk_widget_get_visible);

  if (list == NULL)
    list = find_widget (widget, GTK_TYPE_COLUMN_VIEW, gtk_widget_get_visible);
  if (GTK_IS_LIST_VIEW (list))
    return gtk_list_view_get_model (GTK_LIST_VIEW (list));
  return list ? gtk_column_view_get_model (GTK_COLUMN_VIEW (list)) : NULL;
}

/* "TYPE POS": picks row POS of the first visible widget of TYPE, a drop
 * down or a widget holding a list, as a click on that row does (a widget
 * whose click does more than select, the rank sidebar, says how with
 * its sidebar.pick action). */
static void
run_select (GtkWidget *window, const char *arg)
{
  g_auto(GStrv) parts = g_strsplit (arg, " ", 2);
  GType type = parts[0] ? g_type_from_name (parts[0]) : G_TYPE_INVALID;
  GtkWidget *widget = type != G_TYPE_INVALID ? find_widget (window, type, gtk_widget_get_visible) : NULL;
  guint pos = parts[0] && parts[1] ? (guint) strtoul (parts[1], NULL, 10) : 0;
  GtkSelectionModel *model = widget ? list_model_of (widget) : NULL;

  if (GTK_IS_DROP_DOWN (widget))
    gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), pos);
  else if (widget != NULL && gtk_widget_activate_action (widget, "sidebar.pick", "u", pos))
    return;
  else if (model != NULL)
    gtk_selection_model_select_item (model, pos, TRUE);
  else
    g_message ("no visible list of type '%s'", arg);
}

/* The frame under the pointer in the flame graph on screen is selected
 * and the graph takes the keys, as a left click there does. Real clicks
 * soon after a context menu closed were sometimes lost on a loaded
 * machine; tests point with the pointer and select with this. */
static void
run_click (GtkWidget *window, const char *arg)
{
  GtkWidget *view = find_widget (window, AFG_TYPE_FLAME_VIEW, gtk_widget_get_mapped);
  guint32 node = view ? afg_flame_view_get_hover_node (AFG_FLAME_VIEW (view)) : AFG_FLAME_NO_FRAME;

  if (node == AFG_FLAME_NO_FRAME)
    {
      g_message ("click: no frame under the pointer");
      return;
    }
  gtk_widget_grab_focus (view);
  afg_flame_view_set_selected_node (AFG_FLAME_VIEW (view), node);
}

/* "NAME": the worker requests of that kind wait before they run, until
 * "release NAME" (afg_worker_hold). */
static void
run_hold (GtkWidget *window, const char *arg)
{
  afg_worker_hold (arg, TRUE);
}

static void
run_release (GtkWidget *window, const char *arg)
{
  afg_worker_hold (arg, FALSE);
}

static void
run_command (Control *control, const char *line)
{
  static const struct {
    const char *name;
    void (*run) (GtkWidget *window, const char *arg);
  } commands[] = {
    { "action", run_action },
    { "barrier", run_barrier },
    { "click", run_click },
    { "hold", run_hold },
    { "release", run_release },
    { "search", run_search },
    { "select", run_select },
  };
  GtkWindow *window = gtk_application_get_active_window (control->app);
  const char *space = strchr (line, ' ');
  gsize len = space ? (gsize) (space - line) : strlen (line);

  if (window == NULL)
    {
      g_message ("no window for '%s'", line);
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strlen (commands[i].name) == len && strncmp (line, commands[i].name, len) == 0)
      {
        commands[i].run (GTK_WIDGET (window), space ? space + 1 : "");
        return;
      }
  g_message ("unknown command '%s'", line);
}

static void
run_lines (Control *control)
{
  char *end;

  while ((end = strchr (control->pending->str, '\n')) != NULL)
    {
      g_autofree char *line = g_strndup (control->pending->str, end - control->pending->str);

      g_string_erase (control->pending, 0, end - control->pending->str + 1);
      run_command (control, line);
    }
}

static gboolean
on_input (int fd, GIOCondition condition, gpointer data)
{
  Control *control = data;
  char buffer[4096];
  gssize n = read (fd, buffer, sizeof buffer);

  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return G_SOURCE_CONTINUE;
  if (n <= 0)
    {
      g_string_free (control->pending, TRUE);
      g_free (control);
      return G_SOURCE_REMOVE;
    }
  g_string_append_len (control->pending, buffer, n);
  run_lines (control);
  return G_SOURCE_CONTINUE;
}

void
afg_test_control_start (GtkApplication *app)
{
  g_autoptr(GError) error = NULL;
  Control *control;

  g_return_if_fail (GTK_IS_APPLICATION (app));

  if (g_getenv ("AFG_TEST_STATE") == NULL || g_getenv ("AFG_TEST_CONTROL") == NULL)
    return;
  if (!g_unix_set_fd_nonblocking (STDIN_FILENO, TRUE, &error))
    {
      g_message ("stdin: %s", error->message);
      return;
    }
  control = g_new0 (Control, 1);
  control->app = app;
  control->pending = g_string_new (NULL);
  g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input, control);
}

guint
afg_test_control_get_seq (void)
{
  return passed_seq;
}
