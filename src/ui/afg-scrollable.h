/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The four properties of GtkScrollable, numbered from the first of them
 * in the widget's own property ids. The widgets differ in what a new
 * adjustment does (they set those themselves); the rest is the same. */
typedef enum {
  AFG_SCROLLABLE_PROP_HADJUSTMENT,
  AFG_SCROLLABLE_PROP_VADJUSTMENT,
  AFG_SCROLLABLE_PROP_HSCROLL_POLICY,
  AFG_SCROLLABLE_PROP_VSCROLL_POLICY,
} AfgScrollableProp;

/* Overrides the four properties from @first_prop_id on. */
void     afg_scrollable_override_properties (GObjectClass       *object_class,
                                             guint               first_prop_id);
/* @prop: the widget's property id less its first scrollable one. FALSE
 * where @prop is none of the four. */
gboolean afg_scrollable_get_property        (guint               prop,
                                             GValue             *value,
                                             GtkAdjustment      *hadjustment,
                                             GtkAdjustment      *vadjustment,
                                             GtkScrollablePolicy hscroll_policy,
                                             GtkScrollablePolicy vscroll_policy);
/* Sets a policy; FALSE where @prop is not one of the two policies. */
gboolean afg_scrollable_set_policy          (guint               prop,
                                             const GValue       *value,
                                             GtkScrollablePolicy *hscroll_policy,
                                             GtkScrollablePolicy *vscroll_policy);

G_END_DECLS
