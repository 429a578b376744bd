/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-transform-list.h"
#include "afg-tree.h"
#include "afg-writers.h"

G_BEGIN_DECLS

/* AfgWeight as a GEnum, its nicks the "weight" setting's. */
#define AFG_TYPE_WEIGHT (afg_weight_get_type ())
GType afg_weight_get_type (void) G_GNUC_CONST;

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
 *   comparing        gboolean a comparison is on screen (drawn by its trees'
 *                    host columns, which hold the weight it was made in)
 *   weight           AfgWeight the weight chosen, remembered
 *   device-weight    AfgWeight (read-only) the device weight chosen last,
 *                    AFG_WEIGHT_COMPUTE until one is: where Ctrl+N goes
 *   column           AfgColumn (read-only) what the widths follow now:
 *                    the chosen weight where the tree has it and no
 *                    comparison is shown, else host time
 *   merge-addresses  gboolean trees are built with AFG_TREE_MERGE_ADDRESSES
 *   npu-idle         gboolean trees cover only the instants the NPU is idle
 *   job-folder       GFile    the job folder open (its ranks in the
 *                    sidebar), or NULL
 *   transforms       AfgTransformList the call-tree transforms applied to
 *                    the shown file's trees, or NULL
 *   icicle           gboolean the graphs are drawn as icicles (roots at the
 *                    top) rather than flames
 *   document         AfgDocument (read-only) the shown tree's, or NULL
 *   scope            const AfgScope (read-only) the shown tree's, or NULL:
 *                    notifies when a tree of another scope is shown
 */
AfgSession       *afg_session_new                 (void);
GFile            *afg_session_get_file            (AfgSession       *self);
void              afg_session_set_file            (AfgSession       *self,
                                                   GFile            *file);
AfgTree          *afg_session_get_tree            (AfgSession       *self);
AfgDocument      *afg_session_get_document        (AfgSession       *self);
const AfgScope   *afg_session_get_scope           (AfgSession       *self);
void              afg_session_set_tree            (AfgSession       *self,
                                                   AfgTree          *tree);
gboolean          afg_session_get_comparing       (AfgSession       *self);
void              afg_session_set_comparing       (AfgSession       *self,
                                                   gboolean          comparing);
AfgWeight         afg_session_get_weight          (AfgSession       *self);
void              afg_session_set_weight          (AfgSession       *self,
                                                   AfgWeight         weight);
AfgWeight         afg_session_get_device_weight   (AfgSession       *self);
/* The weight the widths follow now: the one of afg_session_get_column(). */
AfgWeight         afg_session_get_shown_weight    (AfgSession       *self);
AfgColumn         afg_session_get_column          (AfgSession       *self);
/* The column @tree would be shown in with the session's other state. */
AfgColumn         afg_session_column_for          (AfgSession       *self,
                                                   AfgTree          *tree);
gboolean          afg_session_get_merge_addresses (AfgSession       *self);
void              afg_session_set_merge_addresses (AfgSession       *self,
                                                   gboolean          merge);
AfgTreeFlags      afg_session_get_tree_flags      (AfgSession       *self);
gboolean          afg_session_get_npu_idle        (AfgSession       *self);
void              afg_session_set_npu_idle        (AfgSession       *self,
                                                   gboolean          npu_idle);
GFile            *afg_session_get_job_folder      (AfgSession       *self);
void              afg_session_set_job_folder      (AfgSession       *self,
                                                   GFile            *folder);
AfgTransformList *afg_session_get_transforms      (AfgSession       *self);
void              afg_session_set_transforms      (AfgSession       *self,
                                                   AfgTransformList *transforms);
gboolean          afg_session_get_icicle          (AfgSession       *self);
void              afg_session_set_icicle          (AfgSession       *self,
                                                   gboolean          icicle);

G_END_DECLS
