/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-scrollable.h"

void
afg_scrollable_override_properties (GObjectClass *object_class, guint first_prop_id)
{
  g_object_class_override_property (object_class, first_prop_id + AFG_SCROLLABLE_PROP_HADJUSTMENT,
                                    "hadjustment");
  g_object_class_override_property (object_class, first_prop_id + AFG_SCROLLABLE_PROP_VADJUSTMENT,
                                    "vadjustment");
  g_object_class_override_property (object_class, first_prop_id + AFG_SCROLLABLE_PROP_HSCROLL_POLICY,
                                    "hscroll-policy");
  g_object_class_override_property (object_class, first_prop_id + AFG_SCROLLABLE_PROP_VSCROLL_POLICY,
                                    "vscroll-policy");
}

gboolean
afg_scrollable_get_property (guint prop, GValue *value, GtkAdjustment *hadjustment,
                             GtkAdjustment *vadjustment, GtkScrollablePolicy hscroll_policy,
                             GtkScrollablePolicy vscroll_policy)
{
  if (prop == AFG_SCROLLABLE_PROP_HADJUSTMENT || prop == AFG_SCROLLABLE_PROP_VADJUSTMENT)
    g_value_set_object (value, prop == AFG_SCROLLABLE_PROP_HADJUSTMENT ? hadjustment : vadjustment);
  else if (prop == AFG_SCROLLABLE_PROP_HSCROLL_POLICY || prop == AFG_SCROLLABLE_PROP_VSCROLL_POLICY)
    g_value_set_enum (value, prop == AFG_SCROLLABLE_PROP_HSCROLL_POLICY ? hscroll_policy : vscroll_policy);
  else
    return FALSE;
  return TRUE;
}

gboolean
afg_scrollable_set_policy (guint prop, const GValue *value, GtkScrollablePolicy *hscroll_policy,
                           GtkScrollablePolicy *vscroll_policy)
{
  if (prop == AFG_SCROLLABLE_PROP_HSCROLL_POLICY)
    *hscroll_policy = g_value_get_enum (value);
  else if (prop == AFG_SCROLLABLE_PROP_VSCROLL_POLICY)
    *vscroll_policy = g_value_get_enum (value);
  else
    return FALSE;
  return TRUE;
}
