/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_NOTICE_BAR (afg_notice_bar_get_type ())
G_DECLARE_FINAL_TYPE (AfgNoticeBar, afg_notice_bar, AFG, NOTICE_BAR, GtkWidget)

/* The bar over the window's pages that says what an export did: its
 * message, a button labelled @open_label for win.open-exported (none
 * when NULL), and Dismiss (win.dismiss-notice). */
void afg_notice_bar_show    (AfgNoticeBar *self,
                             const char   *message,
                             const char   *open_label);
void afg_notice_bar_dismiss (AfgNoticeBar *self);
/* The message shown; NULL once dismissed. */
const char *afg_notice_bar_get_message    (AfgNoticeBar *self);
/* The open button's label; NULL when it is hidden or the bar dismissed. */
const char *afg_notice_bar_get_open_label (AfgNoticeBar *self);

G_END_DECLS
