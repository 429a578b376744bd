/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-flame-view.h"
#include "afg-scope.h"
#include "afg-session.h"
#include "afg-step-strip.h"

G_BEGIN_DECLS

#define AFG_TYPE_STEPS_BAR (afg_steps_bar_get_type ())

G_DECLARE_FINAL_TYPE (AfgStepsBar, afg_steps_bar, AFG, STEPS_BAR, GtkWidget)

/* The bar under the header: the step strip, its summary, "Per step",
 * "All steps" and "While NPU idle". It reads the session's tree; a scope
 * it is asked to build arrives as "scope-built" (the tree, not yet shown).
 * "per-step" is the toggle's state. */
void          afg_steps_bar_set_session    (AfgStepsBar       *self,
                                            AfgSession        *session);
AfgStepStrip *afg_steps_bar_get_strip      (AfgStepsBar       *self);
/* Shows @document's steps, the whole profile picked. */
void          afg_steps_bar_show_document  (AfgStepsBar       *self,
                                            AfgDocument       *document);
void          afg_steps_bar_hide           (AfgStepsBar       *self);
/* Another widget at the bar's end. */
void          afg_steps_bar_append         (AfgStepsBar       *self,
                                            GtkWidget         *widget);
/* The steps the strip picks in @document (all when none), in the idle
 * instants while the session asks for them; FALSE when the strip is not
 * @document's. */
gboolean      afg_steps_bar_get_scope      (AfgStepsBar       *self,
                                            AfgDocument       *document,
                                            AfgScope          *scope);
/* @tree, a whole-profile tree afg_tree_build() made (not transformed),
 * is what going back to the whole profile of its document with its flags
 * shows again, instead of building it (100–150 ms at 1M rows). The bar
 * keeps the whole-profile trees it builds the same way. */
void          afg_steps_bar_keep_whole     (AfgStepsBar       *self,
                                            AfgTree           *tree);
/* Builds @scope of @document in a worker; an older build is cancelled. */
void          afg_steps_bar_build          (AfgStepsBar       *self,
                                            AfgDocument       *document,
                                            const AfgScope    *scope);
/* The tree shown again, same scope, as the session's flags say. */
void          afg_steps_bar_rebuild        (AfgStepsBar       *self);
void          afg_steps_bar_cancel         (AfgStepsBar       *self);
/* When the steps were picked, for the time to the first paint. */
void          afg_steps_bar_start_clock    (AfgStepsBar       *self);
/* @tree, a scope, is on @view: "All steps" for a bounded one, and the
 * time to its first paint logged. */
void          afg_steps_bar_scope_shown    (AfgStepsBar       *self,
                                            AfgTree           *tree,
                                            AfgFlameView      *view);
/* Esc's last resort: back to the whole profile; FALSE when it is shown. */
gboolean      afg_steps_bar_escape         (AfgStepsBar       *self);
gboolean      afg_steps_bar_get_per_step   (AfgStepsBar       *self);
guint         afg_steps_bar_get_divisor    (AfgStepsBar       *self);
char         *afg_steps_bar_format_ns      (AfgStepsBar       *self,
                                            gint64             ns);
/* "steps 10–12", "step 11 while the NPU is idle", or NULL for the whole
 * profile. */
char         *afg_steps_bar_scope_words    (const AfgScope    *scope);
char         *afg_steps_bar_describe       (AfgStepsBar       *self);
/* The status line's device time: the scope's (divided as "Per step"
 * divides), or the whole DB's; NULL without NPU data. */
char         *afg_steps_bar_describe_npu   (AfgStepsBar       *self);
void          afg_steps_bar_append_state   (AfgStepsBar       *self,
                                            GString           *hover,
                                            GString           *slow);
char         *afg_steps_bar_scope_field    (AfgStepsBar       *self);

G_END_DECLS
