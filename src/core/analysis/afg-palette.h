/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-category.h"

G_BEGIN_DECLS

typedef struct {
  double red;
  double green;
  double blue;
} AfgFlameColor;

/* FNV-1a of the UTF-8 bytes: the page computes the same. */
guint32 afg_flame_hash_name      (const char    *name);
/* A category picks the hue, the hash of the name the shade. */
void    afg_flame_color_for_name (const char    *name,
                                  AfgCategory    category,
                                  AfgFlameColor *color);

G_END_DECLS
