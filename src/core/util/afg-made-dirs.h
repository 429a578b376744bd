/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The outermost of @dir and its parents that does not exist yet, as an
 * absolute path: the first folder g_mkdir_with_parents (@dir) makes;
 * NULL when @dir exists. Taken before the folders are made, it lets a
 * failed write take away all it made and nothing else. */
char *afg_made_dirs_first  (const char *dir);
/* Removes @dir and its parents up to @first (from afg_made_dirs_first;
 * NULL: nothing), each only when empty: a folder something else wrote
 * into meanwhile stays, and so do those above it. */
void  afg_made_dirs_remove (const char *dir,
                            const char *first);

G_END_DECLS
