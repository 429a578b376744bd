/* SPDX-License-Identifier: MIT */
/* The window's call-tree transforms (afg-tree-transform.h): a frame's
 * context menu and Alt+F, Alt+Shift+F, Alt+M, Alt+D, Alt+R add one for
 * the selected frame, the bar under the steps lists them in order with a
 * × on each, Ctrl+Z (and Esc, after the search and the zoom) takes out
 * the last. They apply to whatever tree the window shows of a file, any
 * scope or weight: when a tree comes that no transform made, it is kept
 * as the base and the list applied to it in a worker. Each file keeps
 * its list until the window closes. */
#define G_LOG_DOMAIN "afg-window"

#include "config.h"

#include <glib/gi18n.h>

#include "afg-tree-transform.h"
#include "afg-transforms-section.h"
#include "afg-window-private.h"

struct _AfgTransformsSection {
  GObject           parent_instance;

  AfgWindow        *window;   /* not a reference: the window keeps the section */
  GHashTable       *by_file;  /* path -> AfgTransformList */
  AfgTransformList *list;     /* the file's, applied */
  AfgTree          *base;     /* the tree the list applies to */
  AfgWorker        *worker;   /* the transform under way */
  GtkWidget        *bar;
  GtkWidget        *crumbs;
  GtkWidget        *menu;     /* the frame's context menu */
};

G_DEFINE_FINAL_TYPE (AfgTransformsSection, afg_transforms_section, G_TYPE_OBJECT)

typedef struct {
  AfgTree          *base;
  AfgTransformList *list;  /* a copy: the window goes on changing its own */
} Request;

static void
request_free (gpointer data)
{
  Request *req = data;

  afg_tree_unref (req->base);
  afg_transform_list_unref (req->list);
  g_free (req);
}

static const char *
file_key (AfgWindow *self)
{
  AfgTree *tree = self->transforms->base;

  return tree != NULL ? afg_document_get_source_path (afg_tree_get_document (tree)) : NULL;
}

static gpointer
transform_in_thread (gpointer data, GCancellable *cancellable, GError **error)
{
  Request *req = data;
  gint64 start = g_get_monotonic_time ();
  AfgTree *tree = afg_tree_transform (req->base, req->list, cancellable, error);

  g_debug ("transformed in %.1f ms", (g_get_monotonic_time () - start) / 1000.0);
  return tree;
}

static void
on_transformed (gpointer owner, gpointer result, const GError *error, gpointer data)
{
  AfgTransformsSection *t = owner;

  if (result != NULL)
    _afg_window_steps_show_tree (t->window, result);
  else
    _afg_window_show_notice (t->window, error->message, NULL);
}

static const AfgWorkerFuncs transform_funcs = {
  .name = "afg-transform",
  .run = transform_in_thread,
  .done = on_transformed,
  .free_result = (GDestroyNotify) afg_tree_unref,
};

/* The base again, or the base transformed by the list. */
static void
apply (AfgWindow *self)
{
  AfgTransformsSection *t = self->transforms;
  Request *req;

  afg_worker_cancel (t->worker);
  if (t->base == NULL)
    return;
  if (t->list == NULL || afg_transform_list_get_length (t->list) == 0)
    {
      _afg_window_steps_show_tree (self, t->base);
      return;
    }
  req = g_new0 (Request, 1);
  req->base = afg_tree_ref (t->base);
  req->list = afg_transform_list_concat (t->list, NULL);
  afg_worker_start (t->worker, &transform_funcs, req, request_free);
}

static void
remove_clicked (GtkButton *button, AfgWindow *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));

  gtk_widget_activate_action (GTK_WIDGET (self), "win.remove-transform", "u", index);
}

static GtkWidget *
crumb_new (AfgWindow *self, const AfgTransform *transform, guint index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  g_autofree char *text = g_strdup_printf ("%s %s", afg_transform_op_to_string (transform->op), transform->arg);
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *remove = gtk_button_new_from_icon_name ("window-close-symbolic");

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_widget_set_tooltip_text (label, text);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_add_css_class (remove, "circular");
  gtk_widget_set_tooltip_text (remove, _("Take out this transform"));
  g_object_set_data (G_OBJECT (remove), "index", GUINT_TO_POINTER (index));
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_clicked), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), remove);
  gtk_widget_add_css_class (box, "transform-crumb");
  return box;
}

static void
update_bar (AfgWindow *self)
{
  AfgTransformsSection *t = self->transforms;
  guint n = t->list != NULL ? afg_transform_list_get_length (t->list) : 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (t->crumbs)) != NULL)
    gtk_box_remove (GTK_BOX (t->crumbs), child);
  for (guint i = 0; i < n; i++)
    gtk_box_append (GTK_BOX (t->crumbs), crumb_new (self, afg_transform_list_get (t->list, i), i));
  gtk_widget_set_visible (t->bar, n > 0);
}

/* The file's list becomes @list (taken), and is applied. */
static void
set_list (AfgWindow *self, AfgTransformList *list)
{
  AfgTransformsSection *t = self->transforms;
  const char *key = file_key (self);

  /* The steps' "drawn N ms after the click" times this change too. */
  afg_steps_bar_start_clock (self->steps_bar);
  g_clear_pointer (&t->list, afg_transform_list_unref);
  t->list = list;
  afg_session_set_transforms (self->session, list);
  if (key != NULL)
    g_hash_table_replace (t->by_file, g_strdup (key), afg_transform_list_ref (list));
  update_bar (self);
  apply (self);
  _afg_window_update_actions (self);
  _afg_window_report_state (self);
}

static void
add (AfgWindow *self, AfgTransformOp op, const char *arg)
{
  g_autoptr(GError) error = NULL;
  AfgTransformList *list = afg_transform_list_concat (self->transforms->list, NULL);

  if (!afg_transform_list_append (list, op, arg, &error))
    {
      afg_transform_list_unref (list);
      _afg_window_show_notice (self, error->message, NULL);
      return;
    }
  set_list (self, list);
}

/* Every transform but the one at @index. */
static void
remove_at (AfgWindow *self, guint index)
{
  AfgTransformList *list = self->transforms->list;
  g_autoptr(AfgTransformList) head = NULL;
  AfgTransformList *rest;

  if (list == NULL || index >= afg_transform_list_get_length (list))
    return;
  head = afg_transform_list_head (list, index);
  rest = afg_transform_list_new ();
  for (guint i = index + 1; i < afg_transform_list_get_length (list); i++)
    afg_transform_list_append (rest, afg_transform_list_get (list, i)->op, afg_transform_list_get (list, i)->arg, NULL);
  set_list (self, afg_transform_list_concat (head, rest));
  afg_transform_list_unref (rest);
}

/* A tree that no transform made is the new base: a load, a scope, the
 * merged addresses. One of ours needs nothing. */
static void
on_tree_changed (AfgWindow *self, GParamSpec *pspec, AfgSession *session)
{
  AfgTransformsSection *t = self->transforms;
  AfgTree *tree = afg_session_get_tree (session);
  const char *old_key = file_key (self);
  const char *new_key;
  AfgTransformList *list;

  if (tree == NULL || afg_tree_get_transforms (tree) != NULL || afg_session_get_comparing (session))
    return;
  new_key = afg_document_get_source_path (afg_tree_get_document (tree));
  if (g_strcmp0 (old_key, new_key) != 0)
    {
      list = g_hash_table_lookup (t->by_file, new_key);
      g_clear_pointer (&t->list, afg_transform_list_unref);
      t->list = list != NULL ? afg_transform_list_ref (list) : NULL;
      afg_session_set_transforms (session, t->list);
    }
  g_clear_pointer (&t->base, afg_tree_unref);
  t->base = afg_tree_ref (tree);
  update_bar (self);
  if (t->list != NULL && afg_transform_list_get_length (t->list) > 0)
    apply (self);
}

static gboolean
can_transform (AfgWindow *self)
{
  return self->transforms->base != NULL && _afg_window_get_tree (self) != NULL && !_afg_window_is_comparing (self)
         && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "graph") == 0;
}

static void
transform_selected (AfgWindow *self, AfgTransformOp op)
{
  guint32 node = afg_flame_view_get_selected_node (self->flame_view);
  AfgTree *tree = _afg_window_get_tree (self);
  g_autofree char *arg = NULL;

  if (!can_transform (self) || node == AFG_FLAME_NO_FRAME || node <= afg_tree_get_n_threads (tree))
    return;
  arg = afg_tree_transform_arg_for_node (tree, op, node);
  add (self, op, arg);
}

static const struct {
  const char     *action;
  AfgTransformOp  op;
} op_actions[] = {
  { "win.focus-subtree", AFG_TRANSFORM_FOCUS_SUBTREE },
  { "win.focus-function", AFG_TRANSFORM_FOCUS_FUNCTION },
  { "win.merge-function", AFG_TRANSFORM_MERGE_FUNCTION },
  { "win.drop-function", AFG_TRANSFORM_DROP_FUNCTION },
  { "win.collapse-recursion", AFG_TRANSFORM_COLLAPSE_RECURSION },
  { "win.collapse-indirect-recursion", AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION },
};

static void
op_action (GtkWidget *widget, const char *name, GVariant *param)
{
  for (guint i = 0; i < G_N_ELEMENTS (op_actions); i++)
    if (g_strcmp0 (op_actions[i].action, name) == 0)
      transform_selected (AFG_WINDOW (widget), op_actions[i].op);
}

/* ("merge-function", "aten::to"): the Functions panel's rows and tests
 * name the function themselves. */
static void
add_transform_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);
  const char *op_name, *arg;
  AfgTransformOp op;

  g_variant_get (param, "(&s&s)", &op_name, &arg);
  if (can_transform (self) && afg_transform_op_from_string (op_name, &op))
    add (self, op, arg);
}

static void
pop_transform_action (GtkWidget *widget, const char *name, GVariant *param)
{
  AfgWindow *self = AFG_WINDOW (widget);
  AfgTransformList *list = self->transforms->list;

  if (list != NULL && afg_transform_list_get_length (list) > 0)
    remove_at (self, afg_transform_list_get_length (list) - 1);
}

static void
remove_transform_action (GtkWidget *widget, const char *name, GVariant *param)
{
  remove_at (AFG_WINDOW (widget), g_variant_get_uint32 (param));
}

/* Esc's turn after the search and the zoom: the last transform. */
gboolean
afg_transforms_section_escape (AfgTransformsSection *section)
{
  AfgWindow *self = section->window;
  AfgTransformList *list = self->transforms->list;

  if (list == NULL || afg_transform_list_get_length (list) == 0 || !can_transform (self))
    return FALSE;
  remove_at (self, afg_transform_list_get_length (list) - 1);
  return TRUE;
}

/* A right click selects the frame under the pointer and offers the
 * transforms for it. */
static void
on_secondary_pressed (GtkGestureClick *gesture, int n_press, double x, double y, AfgWindow *self)
{
  guint32 node = afg_flame_view_get_hover_node (self->flame_view);

  if (node == AFG_FLAME_NO_FRAME || !can_transform (self))
    return;
  afg_flame_view_set_selected_node (self->flame_view, node);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->transforms->menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->transforms->menu));
}

static GMenuModel *
menu_model (void)
{
  GMenu *menu = g_menu_new ();

  g_menu_append (menu, _("Focus on Subtree"), "win.focus-subtree");
  g_menu_append (menu, _("Focus on Function"), "win.focus-function");
  g_menu_append (menu, _("Merge Function"), "win.merge-function");
  g_menu_append (menu, _("Drop Function"), "win.drop-function");
  g_menu_append (menu, _("Collapse Recursion"), "win.collapse-recursion");
  g_menu_append (menu, _("Collapse Indirect Recursion"), "win.collapse-indirect-recursion");
  return G_MENU_MODEL (menu);
}

static GtkWidget *
bar_new (AfgTransformsSection *t)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Transforms:"));
  GtkWidget *scroller = gtk_scrolled_window_new ();

  t->crumbs = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), t->crumbs);
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_add_css_class (title, "dim-label");
  g_object_set (bar, "margin-start", 12, "margin-end", 12, "margin-bottom", 6, NULL);
  gtk_box_append (GTK_BOX (bar), title);
  gtk_box_append (GTK_BOX (bar), scroller);
  gtk_widget_set_visible (bar, FALSE);
  return bar;
}

static void
afg_transforms_section_dispose (GObject *object)
{
  AfgTransformsSection *t = AFG_TRANSFORMS_SECTION (object);

  g_clear_object (&t->worker);
  if (t->menu != NULL)
    gtk_widget_unparent (g_steal_pointer (&t->menu));
  g_clear_pointer (&t->by_file, g_hash_table_unref);
  g_clear_pointer (&t->list, afg_transform_list_unref);
  g_clear_pointer (&t->base, afg_tree_unref);

  G_OBJECT_CLASS (afg_transforms_section_parent_class)->dispose (object);
}

static void
afg_transforms_section_class_init (AfgTransformsSectionClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = afg_transforms_section_dispose;
}

static void
afg_transforms_section_init (AfgTransformsSection *t)
{
  t->worker = afg_worker_new (t);
  t->by_file = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) afg_transform_list_unref);
}

/* Its bar goes under @window's steps bar, its menu on the flame graph; it
 * follows the session's tree. */
AfgTransformsSection *
afg_transforms_section_new (AfgWindow *self)
{
  AfgTransformsSection *t = g_object_new (AFG_TYPE_TRANSFORMS_SECTION, NULL);
  GtkGesture *secondary = gtk_gesture_click_new ();
  g_autoptr(GMenuModel) model = menu_model ();

  t->window = self;
  t->bar = bar_new (t);
  gtk_box_insert_child_after (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->steps_bar))), t->bar,
                              GTK_WIDGET (self->steps_bar));
  t->menu = gtk_popover_menu_new_from_model (model);
  gtk_widget_set_parent (t->menu, GTK_WIDGET (self->flame_view));
  gtk_popover_set_has_arrow (GTK_POPOVER (t->menu), FALSE);
  gtk_popover_set_position (GTK_POPOVER (t->menu), GTK_POS_BOTTOM);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (secondary), GDK_BUTTON_SECONDARY);
  g_signal_connect (secondary, "pressed", G_CALLBACK (on_secondary_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->flame_view), GTK_EVENT_CONTROLLER (secondary));
  g_signal_connect_object (self->session, "notify::tree", G_CALLBACK (on_tree_changed), self, G_CONNECT_SWAPPED);
  return t;
}

/* The enabled actions: a frame to act on, a list to pop. */
void
afg_transforms_section_update_actions (AfgTransformsSection *section)
{
  AfgWindow *self = section->window;
  gboolean can = self->transforms != NULL && can_transform (self);
  gboolean frame = can && afg_flame_view_get_selected_node (self->flame_view) != AFG_FLAME_NO_FRAME;
  gboolean any = can && self->transforms->list != NULL && afg_transform_list_get_length (self->transforms->list) > 0;

  for (guint i = 0; i < G_N_ELEMENTS (op_actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), op_actions[i].action, frame);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.add-transform", can);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.pop-transform", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.remove-transform", any);
}

void
afg_transforms_section_install_actions (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (op_actions); i++)
    gtk_widget_class_install_action (widget_class, op_actions[i].action, NULL, op_action);
  gtk_widget_class_install_action (widget_class, "win.add-transform", "(ss)", add_transform_action);
  gtk_widget_class_install_action (widget_class, "win.pop-transform", NULL, pop_transform_action);
  gtk_widget_class_install_action (widget_class, "win.remove-transform", "u", remove_transform_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_ALT_MASK, "win.focus-subtree", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F, GDK_ALT_MASK | GDK_SHIFT_MASK, "win.focus-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_m, GDK_ALT_MASK, "win.merge-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_ALT_MASK, "win.drop-function", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_ALT_MASK, "win.collapse-recursion", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.pop-transform", NULL);
}
