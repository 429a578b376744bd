/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes the files in @dir, then @dir: a folder this program made and
 * filled itself (no subfolders), such as a private copy or a rank's
 * output. What cannot be removed stays, silently. */
void afg_flat_dir_remove (const char *dir);

G_END_DECLS
