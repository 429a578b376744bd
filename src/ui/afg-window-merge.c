/* SPDX-License-Identifier: MIT */
/* "Merge Address Variants" (win.merge-addresses), on by default
 * and remembered (the merge-addresses setting): every ` at 0x<hex>` in a
 * frame name becomes ` at 0x…` before the tree is built, so that the
 * variants of one call are one frame. Toggling it builds again what the
 * window shows, a profile (its steps kept) or a comparison. */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include "afg-settings.h"
#include "afg-window-private.h"

#define ACTION_NAME "merge-addresses"

static gboolean
is_merged (AfgTree *tree)
{
  return (afg_tree_get_flags (tree) & AFG_TREE_MERGE_ADDRESSES) != 0;
}

static GFile *
source_file (AfgDiffShape *shape, AfgDiffSide side)
{
  AfgDocument *document = afg_tree_get_document (afg_diff_shape_get_source (shape, side));

  return g_file_new_for_path (afg_document_get_source_path (document));
}

/* A load under way follows the setting once its tree shows. */
static void
on_state_changed (AfgWindow *self)
{
  gboolean merge = _afg_window_tree_flags (self) != AFG_TREE_FLAGS_NONE;

  if (_afg_window_is_comparing (self))
    {
      AfgDiffShape *shape = afg_diff_view_get_shape (self->diff_view);
      g_autoptr(GFile) a = source_file (shape, AFG_DIFF_SIDE_A);
      g_autoptr(GFile) b = source_file (shape, AFG_DIFF_SIDE_B);

      if (is_merged (afg_diff_shape_get_source (shape, AFG_DIFF_SIDE_B)) != merge)
        afg_compare_section_compare (self->compare, a, b);
    }
  /* "All ranks" merges addresses whatever the setting: no two ranks'
   * processes share addresses (afg-merged-tree.h). */
  else if (_afg_window_get_tree (self) != NULL && is_merged (_afg_window_get_tree (self)) != merge && !afg_ranks_section_showing_all (self->ranks))
    afg_steps_bar_rebuild (self->steps_bar);
  _afg_window_report_state (self);
}

/* The session's merge-addresses, kept in the setting of that name.
 * Without the installed schema (a build tree) the toggle still works,
 * but is not kept. */
void
_afg_window_merge_init (AfgWindow *self)
{
  GSettings *settings = afg_settings_get ();
  g_autoptr(GPropertyAction) action = g_property_action_new (ACTION_NAME, self->session, "merge-addresses");

  if (settings != NULL)
    g_settings_bind (settings, ACTION_NAME, self->session, "merge-addresses", G_SETTINGS_BIND_DEFAULT);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_signal_connect_object (self->session, "notify::merge-addresses", G_CALLBACK (on_state_changed), self,
                           G_CONNECT_SWAPPED);
}
