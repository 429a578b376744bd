/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-device-timeline.h"
#include "afg-document.h"

G_BEGIN_DECLS

#define AFG_TYPE_STEP_STRIP (afg_step_strip_get_type ())

G_DECLARE_FINAL_TYPE (AfgStepStrip, afg_step_strip, AFG, STEP_STRIP, GtkWidget)

/* Copies @steps (sorted by id, as the document has them) and selects the
 * whole profile again. */
void       afg_step_strip_set_steps   (AfgStepStrip  *self,
                                       const AfgStep *steps,
                                       guint          n_steps);
guint      afg_step_strip_get_n_steps (AfgStepStrip  *self);
void       afg_step_strip_set_device  (AfgStepStrip         *self,
                                       const AfgDeviceSplit *device);
gboolean   afg_step_strip_get_device  (AfgStepStrip         *self,
                                       guint                 index,
                                       AfgDeviceSplit       *split);
/* The selected steps' indices; FALSE for the whole profile. */
gboolean   afg_step_strip_get_range   (AfgStepStrip  *self,
                                       guint         *first,
                                       guint         *last);
/* The index of the step under the pointer (the "hover" property), or -1. */
int        afg_step_strip_get_hover   (AfgStepStrip  *self);
/* Whether step @index took AFG_STEP_SLOW_FACTOR times the median or more. */
gboolean   afg_step_strip_is_slow     (AfgStepStrip  *self,
                                       guint          index);
/* Back to the whole profile; emits ::range-changed if that changed it. */
void       afg_step_strip_clear_range (AfgStepStrip  *self);
void       afg_step_strip_set_range   (AfgStepStrip  *self,
                                       int            first,
                                       int            last);

/* A of a comparison, marked above the bars (see the .c). */
void       afg_step_strip_set_mark    (AfgStepStrip  *self,
                                       gboolean       marked,
                                       int            first,
                                       int            last);
/* Whether A is marked; @first < 0 for the whole profile. */
gboolean   afg_step_strip_get_mark    (AfgStepStrip  *self,
                                       int           *first,
                                       int           *last);

G_END_DECLS
