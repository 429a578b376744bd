/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-loader.h"

G_BEGIN_DECLS

#define AFG_TYPE_LOADING_PAGE (afg_loading_page_get_type ())
G_DECLARE_FINAL_TYPE (AfgLoadingPage, afg_loading_page, AFG, LOADING_PAGE, GtkBox)

/* The window's page while a profile, a comparison or a job's ranks load:
 * a title, a bar, what the bar counts, and Cancel (win.cancel-load). */
void afg_loading_page_begin         (AfgLoadingPage *self,
                                     const char     *title);
void afg_loading_page_set_title     (AfgLoadingPage *self,
                                     const char     *title);
void afg_loading_page_show_progress (AfgLoadingPage *self,
                                     AfgLoadPhase    phase,
                                     guint64         rows,
                                     guint64         total);
void afg_loading_page_show_ranks    (AfgLoadingPage *self,
                                     guint           read,
                                     guint           n);

G_END_DECLS
