/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-tree.h"

G_BEGIN_DECLS

/* The weights a window can show, as the "weight" setting names them. */
typedef enum {
  AFG_SESSION_WEIGHT_HOST,
  AFG_SESSION_WEIGHT_NPU,
} AfgSessionWeight;

#define AFG_TYPE_SESSION_WEIGHT (afg_session_weight_get_type ())
GType afg_session_weight_get_type (void) G_GNUC_CONST;

#define AFG_TYPE_SESSION (afg_session_get_type ())
G_DECLARE_FINAL_TYPE (AfgSession, afg_session, AFG, SESSION, GObject)

/* What one window shows, apart from how it is drawn: the file, the tree
 * on screen, whether it is one side of a comparison, the weight chosen
 * and the options its trees are built with. No widgets: the window's
 * sections follow these properties (notify), the actions set them, and
 * the test state line reads them.
 *
 *   file             GFile    loading, shown or failed; NULL when empty
 *   tree             AfgTree  the tree on screen, or NULL
 *   comparing        gboolean a comparison is on screen (host time only)
 *   weight           AfgSessionWeight  the weight chosen, remembered
 *   column           AfgColumn (read-only) what the widths follow now:
 *                    the chosen weight where the tree has it and no
 *                    comparison is shown, else host time
 *   merge-addresses  gboolean trees are built with AFG_TREE_MERGE_ADDRESSES
 */
AfgSession       *afg_session_new                 (void);
GFile            *afg_session_get_file            (AfgSession       *self);
void              afg_session_set_file            (AfgSession       *self,
                                                   GFile            *file);
AfgTree          *afg_session_get_tree            (AfgSession       *self);
void              afg_session_set_tree            (AfgSession       *self,
                                                   AfgTree          *tree);
gboolean          afg_session_get_comparing       (AfgSession       *self);
void              afg_session_set_comparing       (AfgSession       *self,
                                                   gboolean          comparing);
AfgSessionWeight  afg_session_get_weight          (AfgSession       *self);
void              afg_session_set_weight          (AfgSession       *self,
                                                   AfgSessionWeight  weight);
AfgColumn         afg_session_get_column          (AfgSession       *self);
/* The column @tree would be shown in with the session's other state. */
AfgColumn         afg_session_column_for          (AfgSession       *self,
                                                   AfgTree          *tree);
gboolean          afg_session_get_merge_addresses (AfgSession       *self);
void              afg_session_set_merge_addresses (AfgSession       *self,
                                                   gboolean          merge);
AfgTreeFlags      afg_session_get_tree_flags      (AfgSession       *self);

G_END_DECLS
