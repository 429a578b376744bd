/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where @text stands in @names (@n of them): its index into @index and
 * TRUE, or FALSE (and @index untouched) when it is none of them or NULL.
 * Every table of names an enum's values are spelled by goes through it. */
gboolean afg_names_find (const char * const *names,
                         guint               n,
                         const char         *text,
                         guint              *index);

G_END_DECLS
