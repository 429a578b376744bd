/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-flame-layout.h"
#include "afg-flame-renderer.h"
#include "afg-flame-search.h"

G_BEGIN_DECLS

#define AFG_TYPE_FLAME_VIEW (afg_flame_view_get_type ())

G_DECLARE_FINAL_TYPE (AfgFlameView, afg_flame_view, AFG, FLAME_VIEW, GtkWidget)

/* The tooltip's Pango markup for a node, instead of the profile's. */
typedef char *(*AfgFlameTooltipFunc) (guint32  node,
                                      gpointer user_data);

GtkWidget            *afg_flame_view_new               (void);
void                  afg_flame_view_set_tree          (AfgFlameView          *self,
                                                        AfgTree               *tree);
void                  afg_flame_view_set_tree_with_layout
                                                       (AfgFlameView          *self,
                                                        AfgTree               *tree,
                                                        AfgFlameLayout        *layout);
void                  afg_flame_view_replace_tree      (AfgFlameView          *self,
                                                        AfgTree               *tree);
void                  afg_flame_view_set_color_func    (AfgFlameView          *self,
                                                        AfgFlameColorFunc      func,
                                                        gpointer               user_data);
void                  afg_flame_view_set_tooltip_func  (AfgFlameView          *self,
                                                        AfgFlameTooltipFunc    func,
                                                        gpointer               user_data);
void                  afg_flame_view_set_view_root     (AfgFlameView          *self,
                                                        guint32                view_root);
void                  afg_flame_view_zoom_to           (AfgFlameView          *self,
                                                        guint32                node);
void                  afg_flame_view_zoom_out          (AfgFlameView          *self);
void                  afg_flame_view_reset_zoom        (AfgFlameView          *self);
gboolean              afg_flame_view_is_zoomed         (AfgFlameView          *self);
void                  afg_flame_view_set_search        (AfgFlameView          *self,
                                                        const char            *text);
gboolean              afg_flame_view_get_search_result (AfgFlameView          *self,
                                                        AfgFlameSearchResult  *result);
guint                 afg_flame_view_step_match        (AfgFlameView          *self,
                                                        gboolean               forward);
/* Scrolls to @node, or zooms out (or in) until it is wide enough to see. */
void                  afg_flame_view_reveal_node       (AfgFlameView          *self,
                                                        guint32                node);
/* The match the last step went to, from 1; 0 before a step. */
guint                 afg_flame_view_get_match         (AfgFlameView          *self);
gboolean              afg_flame_view_get_icicle        (AfgFlameView          *self);
void                  afg_flame_view_set_icicle        (AfgFlameView          *self,
                                                        gboolean               icicle);
const AfgFlameLayout *afg_flame_view_get_layout        (AfgFlameView          *self);
gboolean              afg_flame_view_is_busy           (AfgFlameView          *self);
void                  afg_flame_view_set_divisor       (AfgFlameView          *self,
                                                        guint                  divisor);
guint32               afg_flame_view_get_hover_node    (AfgFlameView          *self);
guint32               afg_flame_view_get_selected_node (AfgFlameView          *self);
gboolean              afg_flame_view_get_selected_point (AfgFlameView         *self,
                                                        graphene_point_t      *point);
void                  afg_flame_view_set_selected_node (AfgFlameView          *self,
                                                        guint32                node);
void                  afg_flame_view_set_highlight     (AfgFlameView          *self,
                                                        guint8                *marks);
GtkWidget            *afg_flame_view_create_tooltip    (AfgFlameView          *self,
                                                        guint32                node);
char                 *afg_flame_view_get_tooltip_text  (AfgFlameView          *self,
                                                        guint32                node);
char                 *afg_flame_view_get_hover_leaf_text (AfgFlameView        *self);
void                  afg_flame_view_set_weight        (AfgFlameView          *self,
                                                        AfgColumn              weight);
AfgColumn             afg_flame_view_get_weight        (AfgFlameView          *self);

G_END_DECLS
