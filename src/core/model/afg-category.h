/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  AFG_CATEGORY_PYTHON,
  AFG_CATEGORY_PYTHON_FRAMEWORK,
  AFG_CATEGORY_CANN,
  AFG_CATEGORY_UNKNOWN,
  AFG_N_CATEGORIES
} AfgCategory;

/* Case-insensitive (ASCII) substring rules in flamegraph.py's order (CANN,
 * framework, Python), first match wins. */
AfgCategory  afg_category_for_name  (const char  *name);
/* The key: "python_framework" (JSON, the folded and trace formats). */
const char  *afg_category_to_string (AfgCategory  category);
/* What people read: "Python framework", translated (the page's names). */
const char  *afg_category_to_label  (AfgCategory  category);

G_END_DECLS
