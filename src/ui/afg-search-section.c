/* SPDX-License-Identifier: MIT */
/* Stepping through a search's matches: F3 and Shift+F3 anywhere in the
 * window (the stack chart's instances when there is no search), Enter and Shift+Enter in the search entry (Enter in the graph
 * still zooms into the selected frame). Each step selects the match and
 * brings it into view (afg_flame_view_step_match). */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-search-section.h"
#include "afg-window-private.h"

struct _AfgSearchSection {
  GObject    parent_instance;

  AfgWindow *window;  /* not a reference: the window keeps the section */
};

G_DEFINE_FINAL_TYPE (AfgSearchSection, afg_search_section, G_TYPE_OBJECT)

/* Without a search to step through, F3 steps through the stack chart's
 * rows of the node selected in the flame graph. */
static void
step (AfgWindow *self, gboolean forward)
{
  if (afg_flame_view_step_match (self->flame_view, forward) > 0)
    afg_search_section_update_match_label (self->search);
  else
    _afg_window_chart_step (self, forward);
}

static void
next_match_action (GtkWidget *widget, const char *name, GVariant *param)
{
  step (AFG_WINDOW (widget), TRUE);
}

static void
previous_match_action (GtkWidget *widget, const char *name, GVariant *param)
{
  step (AFG_WINDOW (widget), FALSE);
}

/* Before the entry's own "activate": Shift+Enter too. */
static gboolean
on_entry_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, AfgWindow *self)
{
  if (keyval != GDK_KEY_Return && keyval != GDK_KEY_KP_Enter && keyval != GDK_KEY_ISO_Enter)
    return FALSE;
  step (self, (state & GDK_SHIFT_MASK) == 0);
  return TRUE;
}

static void
afg_search_section_class_init (AfgSearchSectionClass *klass)
{
}

static void
afg_search_section_init (AfgSearchSection *self)
{
}

AfgSearchSection *
afg_search_section_new (AfgWindow *self)
{
  AfgSearchSection *section = g_object_new (AFG_TYPE_SEARCH_SECTION, NULL);
  GtkEventController *key = gtk_event_controller_key_new ();

  section->window = self;
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_entry_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), key);
  return section;
}

void
afg_search_section_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.next-match", NULL, next_match_action);
  gtk_widget_class_install_action (widget_class, "win.previous-match", NULL, previous_match_action);
}

/* "3 of 17 matches · 12.5%" once a step went to the third. */
void
afg_search_section_update_match_label (AfgSearchSection *section)
{
  AfgWindow *self;
  AfgFlameSearchResult result;
  g_autofree char *percent = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (AFG_IS_SEARCH_SECTION (section));
  self = section->window;
  if (!afg_flame_view_get_search_result (self->flame_view, &result))
    {
      afg_status_bar_set_matches (self->status_bar, "");
      _afg_window_report_state (self);
      return;
    }
  percent = afg_format_percent (result.matched_ns, result.view_ns);
  if (result.n_matches == 0)
    text = g_strdup (_("No matches"));
  else if (afg_flame_view_get_match (self->flame_view) > 0)
    /* TRANSLATORS: "3 of 17 matches · 12.5%": F3 went to the third */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u match · %s", "%u of %u matches · %s",
                                         result.n_matches),
                            afg_flame_view_get_match (self->flame_view), result.n_matches, percent);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u match · %s", "%u matches · %s",
                                         result.n_matches), result.n_matches, percent);
  afg_status_bar_set_matches (self->status_bar, text);
  _afg_window_report_state (self);
}
