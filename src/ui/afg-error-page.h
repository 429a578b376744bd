/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_ERROR_PAGE (afg_error_page_get_type ())
G_DECLARE_FINAL_TYPE (AfgErrorPage, afg_error_page, AFG, ERROR_PAGE, GtkBox)

/* The window's page when a file could not be opened, or holds nothing to
 * draw: a title saying which, the one-line error, and under it the hint,
 * when there is one, on what to do. */
void        afg_error_page_show        (AfgErrorPage *self,
                                        const GError *error,
                                        const char   *hint);
const char *afg_error_page_get_title   (AfgErrorPage *self);
const char *afg_error_page_get_message (AfgErrorPage *self);
/* NULL when the page shows none. */
const char *afg_error_page_get_hint    (AfgErrorPage *self);

G_END_DECLS
