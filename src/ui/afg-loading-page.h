/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-loader.h"
#include "afg-worker.h"

G_BEGIN_DECLS

/* What a loading thread has done, for the main loop to poll: atomics. */
typedef struct {
  gint     phase;  /* AfgLoadPhase */
  guint64  rows;
  guint64  total;
} AfgLoadCounters;

/* An AfgLoadProgressFunc, in the loading thread: @data is the counters. */
void afg_load_counters_store (AfgLoadPhase  phase,
                              guint64       rows,
                              guint64       total,
                              gpointer      data);

#define AFG_TYPE_LOADING_PAGE (afg_loading_page_get_type ())
G_DECLARE_FINAL_TYPE (AfgLoadingPage, afg_loading_page, AFG, LOADING_PAGE, GtkBox)

/* The window's page while a profile, a comparison or a job's ranks load:
 * a title, a bar, what the bar counts, and Cancel (win.cancel-load). */
/* The slot of the profile or comparison the page shows loading: the next
 * cancels the one before. Its requests' owner is the page, in its window. */
AfgWorker *afg_loading_page_get_worker (AfgLoadingPage *self);
void afg_loading_page_begin         (AfgLoadingPage *self,
                                     const char     *title);
void afg_loading_page_set_title     (AfgLoadingPage *self,
                                     const char     *title);
void afg_loading_page_show_progress (AfgLoadingPage *self,
                                     AfgLoadPhase    phase,
                                     guint64         rows,
                                     guint64         total);
/* @n loads in one bar: their rows added up, the slowest one's phase. */
void afg_loading_page_show_counters (AfgLoadingPage        *self,
                                     const AfgLoadCounters *counters,
                                     guint                  n);
void afg_loading_page_show_ranks    (AfgLoadingPage *self,
                                     guint           read,
                                     guint           n);

G_END_DECLS
