/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-status-bar"

#include "config.h"


#include <glib/gi18n.h>

#include "afg-flame-view.h"
#include "afg-format.h"
#include "afg-status-bar.h"

struct _AfgStatusBar {
  GtkWidget    parent_instance;

  /* Template children */
  GtkBox      *box;
  GtkLabel    *selection_label;
  GtkLabel    *status_label;
  GtkLabel    *match_label;

  /* Owned */
  AfgSession  *session;
  AfgStepsBar *steps_bar;
  AfgTree     *pinned_tree;  /* a tree that is not a load's, and its line */
  char        *pinned_text;
};

G_DEFINE_FINAL_TYPE (AfgStatusBar, afg_status_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_STEPS_BAR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint64
skipped_rows (const AfgStats *s)
{
  return s->skipped_type + s->skipped_null + s->skipped_malformed + s->skipped_nonpositive
         + s->profiler_steps;
}

/* "NAME — 1,234 rows used, 5 skipped · 2 threads · 310 frames · 0 partial
 * overlaps · loaded in 0.12 s" */
static char *
describe_load (AfgTree *tree)
{
  const AfgStats *s = afg_tree_get_stats (tree);
  AfgDocument *document = afg_tree_get_document (tree);
  guint threads = afg_tree_get_n_threads (tree);
  guint frames = afg_tree_get_n_nodes (tree) - 1 - threads;
  /* One count a fragment: each takes its own plural form. Counts are
   * grouped as the page groups them, whatever the locale. */
  g_autofree char *n_used = afg_format_count (s->used);
  g_autofree char *n_skipped = afg_format_count (skipped_rows (s));
  g_autofree char *n_threads = afg_format_count (threads);
  g_autofree char *n_frames = afg_format_count (frames);
  g_autofree char *n_overlaps = afg_format_count (s->partial_overlaps);
  g_autofree char *used = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row used", "%s rows used",
                                                        afg_format_plural_n (s->used)), n_used);
  g_autofree char *skipped = g_strdup_printf (_("%s skipped"), n_skipped);
  g_autofree char *thread_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s thread", "%s threads", threads), n_threads);
  g_autofree char *frame_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s frame", "%s frames", frames), n_frames);
  g_autofree char *overlaps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s partial overlap", "%s partial overlaps",
                                                            afg_format_plural_n (s->partial_overlaps)), n_overlaps);

  return g_strdup_printf (_("%s — %s, %s · %s · %s · %s · loaded in %.2f s"),
                          afg_document_get_source_name (document), used, skipped, thread_text, frame_text, overlaps,
                          afg_document_get_load_seconds (document));
}

/* The scope and the device time before the load's figures: they still
 * show in a narrow window. */
static char *
describe_tree (AfgStatusBar *self, AfgTree *tree)
{
  g_autofree char *scope = afg_steps_bar_describe (self->steps_bar);
  g_autofree char *npu = afg_steps_bar_describe_npu (self->steps_bar);
  g_autofree char *load = describe_load (tree);
  GString *line = g_string_new (NULL);

  if (scope != NULL)
    g_string_append_printf (line, "%s · ", scope);
  if (npu != NULL)
    g_string_append_printf (line, "%s · ", npu);
  g_string_append (line, load);
  return g_string_free (line, FALSE);
}

static void
afg_status_bar_dispose (GObject *object)
{
  AfgStatusBar *self = AFG_STATUS_BAR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), AFG_TYPE_STATUS_BAR);
  g_clear_object (&self->session);
  g_clear_object (&self->steps_bar);
  g_clear_pointer (&self->pinned_tree, afg_tree_unref);
  g_clear_pointer (&self->pinned_text, g_free);
  G_OBJECT_CLASS (afg_status_bar_parent_class)->dispose (object);
}

static void
afg_status_bar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgStatusBar *self = AFG_STATUS_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_STEPS_BAR:
      g_value_set_object (value, self->steps_bar);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_status_bar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgStatusBar *self = AFG_STATUS_BAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      afg_status_bar_set_session (self, g_value_get_object (value));
      break;
    case PROP_STEPS_BAR:
      self->steps_bar = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_status_bar_class_init (AfgStatusBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_status_bar_dispose;
  object_class->get_property = afg_status_bar_get_property;
  object_class->set_property = afg_status_bar_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, AFG_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEPS_BAR] =
    g_param_spec_object ("steps-bar", NULL, NULL, AFG_TYPE_STEPS_BAR,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-status-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgStatusBar, box);
  gtk_widget_class_bind_template_child (widget_class, AfgStatusBar, selection_label);
  gtk_widget_class_bind_template_child (widget_class, AfgStatusBar, status_label);
  gtk_widget_class_bind_template_child (widget_class, AfgStatusBar, match_label);
}

static void
afg_status_bar_init (AfgStatusBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
afg_status_bar_set_session (AfgStatusBar *self, AfgSession *session)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (AFG_IS_SESSION (session));
  g_return_if_fail (self->session == NULL);

  self->session = g_object_ref (session);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/* Asked for, not on the session's notify::tree: the window shows a tree
 * in several steps and the line changes with the rest of them, so the
 * test state line never prints the new line on the loading page. */
void
afg_status_bar_refresh (AfgStatusBar *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (self->steps_bar != NULL);
  g_return_if_fail (self->session != NULL && afg_session_get_tree (self->session) != NULL);

  if (self->pinned_tree == afg_session_get_tree (self->session))
    {
      gtk_label_set_text (self->status_label, self->pinned_text);
      return;
    }
  g_clear_pointer (&self->pinned_tree, afg_tree_unref);
  g_clear_pointer (&self->pinned_text, g_free);
  text = describe_tree (self, afg_session_get_tree (self->session));
  gtk_label_set_text (self->status_label, text);
}

void
afg_status_bar_pin_text (AfgStatusBar *self, AfgTree *tree, const char *text)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (tree != NULL && text != NULL);

  g_clear_pointer (&self->pinned_tree, afg_tree_unref);
  g_free (self->pinned_text);
  self->pinned_tree = afg_tree_ref (tree);
  self->pinned_text = g_strdup (text);
  gtk_label_set_text (self->status_label, text);
}

const char *
afg_status_bar_get_text (AfgStatusBar *self)
{
  g_return_val_if_fail (AFG_IS_STATUS_BAR (self), NULL);

  return gtk_label_get_text (self->status_label);
}

void
afg_status_bar_set_text (AfgStatusBar *self, const char *text)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (self->status_label, text);
}

/* The frame selected: the outline alone is easy to miss on a frame a few
 * pixels wide. Its share is of the column the widths follow. */
void
afg_status_bar_set_selection (AfgStatusBar *self, guint32 node)
{
  AfgTree *tree;
  AfgColumn column;
  g_autofree char *total = NULL;
  g_autofree char *percent = NULL;
  g_autofree char *text = NULL;

  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (self->session != NULL && self->steps_bar != NULL);

  tree = afg_session_get_tree (self->session);
  gtk_widget_set_visible (GTK_WIDGET (self->selection_label), node != AFG_FLAME_NO_FRAME);
  if (node == AFG_FLAME_NO_FRAME || tree == NULL)
    return;
  column = afg_session_get_column (self->session);
  total = afg_steps_bar_format_ns (self->steps_bar, afg_tree_get_value (tree, column, node));
  percent = afg_format_percent (afg_tree_get_value (tree, column, node), afg_tree_get_value (tree, column, AFG_TREE_ROOT));
  text = g_strdup_printf (_("Selected: %s · %s · %s of all"), afg_tree_get_node_title (tree, node), total, percent);
  gtk_label_set_text (self->selection_label, text);
}

void
afg_status_bar_set_selection_text (AfgStatusBar *self, const char *text)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (self->selection_label, text);
}

void
afg_status_bar_set_matches (AfgStatusBar *self, const char *text)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (text != NULL);

  gtk_label_set_text (self->match_label, text);
}

void
afg_status_bar_add_legend (AfgStatusBar *self, GtkWidget *legend)
{
  g_return_if_fail (AFG_IS_STATUS_BAR (self));
  g_return_if_fail (GTK_IS_WIDGET (legend));

  gtk_box_insert_child_after (self->box, legend, GTK_WIDGET (self->status_label));
}
