/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-profile.h"

G_BEGIN_DECLS

/* Case-insensitive (ASCII) substring rules in flamegraph.py's order (CANN,
 * framework, Python), first match wins. */
AfgCategory afg_category_for_name (const char *name);

G_END_DECLS
