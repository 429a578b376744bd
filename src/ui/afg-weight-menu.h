/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-session.h"

G_BEGIN_DECLS

#define AFG_TYPE_WEIGHT_MENU (afg_weight_menu_get_type ())

G_DECLARE_FINAL_TYPE (AfgWeightMenu, afg_weight_menu, AFG, WEIGHT_MENU, GtkWidget)

/* The weight menu of the header bar. It follows the session: the weight
 * the widths show (its "column"), what the tree on screen can show, and
 * whether a comparison is on screen; and "on-graph", TRUE while the
 * window shows its graph page (the window binds it to its stack). Its
 * actions go in the window's action map: "weight" (stateful, the
 * weight's nick) and "toggle-weight" (Ctrl+N: host time, or the device
 * weight chosen last). */
void            afg_weight_menu_set_session  (AfgWeightMenu *self,
                                              AfgSession    *session);
void            afg_weight_menu_add_actions  (AfgWeightMenu *self,
                                              GActionMap    *map);
gboolean        afg_weight_menu_get_on_graph (AfgWeightMenu *self);
void            afg_weight_menu_set_on_graph (AfgWeightMenu *self,
                                              gboolean       on_graph);
GtkMenuButton  *afg_weight_menu_get_button   (AfgWeightMenu *self);
/* The menu's name of @weight ("NPU compute"), translated. */
const char     *afg_weight_menu_get_label    (AfgWeight      weight);

G_END_DECLS
