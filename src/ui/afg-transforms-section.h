/* SPDX-License-Identifier: MIT */
#pragma once

#include <gtk/gtk.h>

#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_TRANSFORMS_SECTION (afg_transforms_section_get_type ())
G_DECLARE_FINAL_TYPE (AfgTransformsSection, afg_transforms_section, AFG, TRANSFORMS_SECTION, GObject)

/* A window's call-tree transforms: each file's list, the bar that shows
 * it, the frame's context menu, and the transformed tree built in a
 * worker slot. The window keeps it; the transform actions (win.focus-*,
 * win.merge-function, …, win.add-transform, win.pop-transform,
 * win.remove-transform) are its. */
AfgTransformsSection *afg_transforms_section_new             (AfgWindow            *window);
void                  afg_transforms_section_install_actions (GtkWidgetClass       *widget_class);
/* Esc's turn after the search and the zoom: FALSE when there was no
 * transform to take out. */
gboolean              afg_transforms_section_escape          (AfgTransformsSection *self);
/* The enabled actions: a frame to act on, a list to pop. */
void                  afg_transforms_section_update_actions  (AfgTransformsSection *self);

G_END_DECLS
