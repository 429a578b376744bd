/* SPDX-License-Identifier: MIT */
#pragma once

#include <gio/gio.h>

#include "afg-window.h"

G_BEGIN_DECLS

#define AFG_TYPE_EXPORT_SECTION (afg_export_section_get_type ())
G_DECLARE_FINAL_TYPE (AfgExportSection, afg_export_section, AFG, EXPORT_SECTION, GObject)

/* Exporting what a window shows (its tree, or its diff as --diff
 * --export writes it): the file dialog, the writer in a worker slot,
 * and the file written, until another tree shows. The window keeps it. */
AfgExportSection *afg_export_section_new          (AfgWindow        *window);
/* Asks where, then writes there; the format follows the name. */
void              afg_export_section_export       (AfgExportSection *self);
/* The last file written for what is on screen, or NULL. */
GFile            *afg_export_section_get_exported (AfgExportSection *self);

G_END_DECLS
