/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define AFG_TYPE_START_PAGE (afg_start_page_get_type ())
G_DECLARE_FINAL_TYPE (AfgStartPage, afg_start_page, AFG, START_PAGE, GtkBox)

/* The window's empty page: Open…, Open Folder… and the profiles and job
 * folders this app opened last, newest first. A row activated emits
 * "open" with its file. */
/* How many recent entries it lists. */
guint afg_start_page_get_n_recent (AfgStartPage *self);
/* Lists the recent entries; Enter then reopens the newest. */
void  afg_start_page_populate     (AfgStartPage *self);
/* Remembers @file, a profile's DB or (@folder) a job's folder, for the
 * start page of the windows to come. */
void  afg_start_page_add_recent   (GFile        *file,
                                   gboolean      folder);

G_END_DECLS
