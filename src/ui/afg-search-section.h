/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_SEARCH_SECTION (afg_search_section_get_type ())
G_DECLARE_FINAL_TYPE (AfgSearchSection, afg_search_section, AFG, SEARCH_SECTION, GObject)

/* A window's search: stepping through the matches (win.next-match,
 * win.previous-match, Enter and Shift+Enter in the entry) and the
 * matches' count and share beside the status line. The window keeps it. */
AfgSearchSection *afg_search_section_new                (AfgWindow        *window);
void              afg_search_section_install_actions    (GtkWidgetClass   *widget_class);
/* "3 of 17 matches · 12.5%" once a step went to the third. */
void              afg_search_section_update_match_label (AfgSearchSection *self);

G_END_DECLS
