/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-document.h"
#include "afg-scope.h"
#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_STEP_COMPARE (afg_step_compare_get_type ())

G_DECLARE_FINAL_TYPE (AfgStepCompare, afg_step_compare, AFG, STEP_COMPARE, GObject)

/* Two step ranges of one DB compared in @window (borrowed: the window
 * owns the comparison). Its Compare menu goes at the end of the window's
 * steps bar. */
AfgStepCompare *afg_step_compare_new          (AfgWindow       *window);
/* "Compare with Steps…": the scope on screen is A, the next pick B. */
void            afg_step_compare_begin        (AfgStepCompare  *self);
/* Stop Comparing: back to A's range; FALSE when no step ranges were
 * compared or awaited. */
gboolean        afg_step_compare_stop         (AfgStepCompare  *self);
/* The strip's pick, before the window rebuilds its tree for it: TRUE
 * when it is B of a comparison. */
gboolean        afg_step_compare_take         (AfgStepCompare  *self,
                                               AfgDocument     *document,
                                               const AfgScope  *scope);
/* A new profile on screen: no pick pending. NULL-safe. */
/* While NPU idle switched to @npu_idle: a diff of two step ranges is made
 * again, both ranges in (or out of) the idle instants, and TRUE returned;
 * A, while B is awaited, is taken so too (the window shows its tree). */
gboolean        afg_step_compare_rescope      (AfgStepCompare  *self,
                                               gboolean         npu_idle);
void            afg_step_compare_reset        (AfgStepCompare  *self);
/* "steps.db steps 10–12 ↔ step 14" for a step diff, else NULL. */
char           *afg_step_compare_title        (AfgStepCompare  *self);
/* The document of the two step ranges compared, or NULL. */
AfgDocument    *afg_step_compare_get_document (AfgStepCompare  *self);
void            afg_step_compare_append_state (AfgStepCompare  *self,
                                               GString         *line);

G_END_DECLS
