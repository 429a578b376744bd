/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_NOTICE_BAR (afg_notice_bar_get_type ())
G_DECLARE_FINAL_TYPE (AfgNoticeBar, afg_notice_bar, AFG, NOTICE_BAR, GtkWidget)

/* The bar over the window's pages that says what an export did: its
 * message, "Open in Browser" (win.open-exported) when @can_open, and
 * Dismiss (win.dismiss-notice). */
void afg_notice_bar_show    (AfgNoticeBar *self,
                             const char   *message,
                             gboolean      can_open);
void afg_notice_bar_dismiss (AfgNoticeBar *self);
/* The message shown; NULL once dismissed. */
const char *afg_notice_bar_get_message (AfgNoticeBar *self);

G_END_DECLS
