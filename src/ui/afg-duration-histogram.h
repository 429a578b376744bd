/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_DURATION_HISTOGRAM (afg_duration_histogram_get_type ())

G_DECLARE_FINAL_TYPE (AfgDurationHistogram, afg_duration_histogram, AFG, DURATION_HISTOGRAM, GtkWidget)

/* Call durations as bars over log-scale buckets (AfgLogHistogram), the
 * bar's height its count; a bar's tooltip names its range and count. */
GtkWidget *afg_duration_histogram_new          (void);
/* @ns: gint64 durations (copied), or NULL for none. */
void       afg_duration_histogram_set_durations (AfgDurationHistogram *self,
                                                 GArray               *ns);
/* How many durations are drawn. */
guint64    afg_duration_histogram_get_n_values  (AfgDurationHistogram *self);
/* How many buckets, empty ones between the first and last included. */
guint      afg_duration_histogram_get_n_buckets (AfgDurationHistogram *self);

G_END_DECLS
