/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <stdio.h>

#include "afg-format.h"
#include "afg-window-private.h"

/* With AFG_TEST_STATE set, each window prints one line to stderr whenever
 * what it shows changes, for end-to-end tests to wait on (not on the
 * wording of debug messages). The format is fixed (README, "Test state
 * line"): "afg-state" then TAB-separated KEY=VALUE fields in this order:
 *   page      empty | loading | error | graph
 *   file      the path the window loads or shows, or empty
 *   zoom      the name of the zoom root on screen (graph only)
 *   selected  the name of the selected frame, or empty
 *   hover     the name of the frame under the pointer, or empty
 *   matches   search matches in the zoom, or empty with no search
 *   matched   their share of the zoom's time, "33.3%", or empty
 *   recent    how many recent profiles the start page lists
 *   exported  the path of the last export, or empty
 *   flipped   0 for the flame orientation, 1 for icicle
 *   error     the error message (error page only)
 *   mode      profile | diff
 *   compared  B's path while a diff is shown (file is A's), else empty
 *   shape, color, norm  the diff's options: a|b, self|total,
 *             raw|per-step|equal-totals; empty without a diff
 *   hover_path    the hovered frame's path in a diff, names joined by ";"
 *   hover_values  its "a_calls a_total a_self b_calls b_total b_self"
 *   tooltip   its tooltip's text, lines joined by spaces
 * Tabs and newlines in values become spaces. */

void
_afg_window_append_state_field (GString *line, const char *key, const char *value)
{
  g_string_append_printf (line, "\t%s=", key);
  for (const char *p = value ? value : ""; *p != '\0'; p++)
    g_string_append_c (line, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
}

static const char *
node_name (AfgWindow *self, guint32 node)
{
  if (self->tree == NULL || node == AFG_FLAME_NO_FRAME)
    return NULL;
  return afg_tree_get_node_name (self->tree, node);
}

static void
append_search (AfgWindow *self, GString *line)
{
  AfgFlameSearchResult result;
  g_autofree char *count = NULL;
  g_autofree char *percent = NULL;

  if (afg_flame_view_get_search_result (self->flame_view, &result))
    {
      count = g_strdup_printf ("%u", result.n_matches);
      percent = afg_format_percent (result.matched_ns, result.view_ns);
    }
  _afg_window_append_state_field (line, "matches", count);
  _afg_window_append_state_field (line, "matched", percent);
}

static char *
build_line (AfgWindow *self)
{
  g_autoptr(GString) line = g_string_new ("afg-state");
  const char *page = gtk_stack_get_visible_child_name (self->stack);
  gboolean graph = g_strcmp0 (page, "graph") == 0;
  g_autofree char *file = self->file ? g_file_get_path (self->file) : NULL;
  g_autofree char *exported = self->exported ? g_file_get_path (self->exported) : NULL;
  g_autofree char *recent = g_strdup_printf ("%u", self->n_recent);
  const AfgFlameLayout *layout = afg_flame_view_get_layout (self->flame_view);

  _afg_window_append_state_field (line, "page", page);
  _afg_window_append_state_field (line, "file", file);
  _afg_window_append_state_field (line, "zoom", graph && layout ? node_name (self, afg_flame_layout_get_zoom_root (layout)) : NULL);
  _afg_window_append_state_field (line, "selected", graph ? node_name (self, afg_flame_view_get_selected_node (self->flame_view)) : NULL);
  _afg_window_append_state_field (line, "hover", graph ? node_name (self, afg_flame_view_get_hover_node (self->flame_view)) : NULL);
  append_search (self, line);
  _afg_window_append_state_field (line, "recent", recent);
  _afg_window_append_state_field (line, "exported", exported);
  _afg_window_append_state_field (line, "flipped", self->flipped ? "1" : "0");
  _afg_window_append_state_field (line, "error", g_strcmp0 (page, "error") == 0 ? gtk_label_get_text (self->error_label) : NULL);
  _afg_window_compare_append_state (self, line, graph);
  return g_string_free (g_steal_pointer (&line), FALSE);
}

void
_afg_window_report_state (AfgWindow *self)
{
  static int enabled = -1;
  g_autofree char *line = NULL;

  if (enabled < 0)
    enabled = g_getenv ("AFG_TEST_STATE") != NULL;
  if (!enabled || self->stack == NULL)
    return;
  line = build_line (self);
  if (g_strcmp0 (line, self->state_line) == 0)
    return;
  fprintf (stderr, "%s\n", line);
  fflush (stderr);
  g_free (self->state_line);
  self->state_line = g_steal_pointer (&line);
}
