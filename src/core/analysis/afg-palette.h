/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

#include "afg-category.h"
#include "afg-tree.h"

G_BEGIN_DECLS

typedef struct {
  double red;
  double green;
  double blue;
} AfgFlameColor;

/* hsl(hue, saturation%, lightness%), whole numbers, as the page writes it. */
typedef struct {
  guint hue;
  guint saturation;
  guint lightness;
} AfgFlameHsl;

/* The root and the threads are structure, not calls: one neutral grey
 * (#b9b9b2), in the window and the page. */
#define AFG_FLAME_STRUCTURE_RED   (0xb9 / 255.0)
#define AFG_FLAME_STRUCTURE_GREEN (0xb9 / 255.0)
#define AFG_FLAME_STRUCTURE_BLUE  (0xb2 / 255.0)

/* FNV-1a of the UTF-8 bytes: the page computes the same. */
guint32 afg_flame_hash_name      (const char    *name);
void    afg_flame_hsl_for_name   (const char    *name,
                                  AfgCategory    category,
                                  AfgFlameHsl   *hsl);
void    afg_flame_color_for_hsl  (const AfgFlameHsl *hsl,
                                  AfgFlameColor     *color);
/* A category picks the hue, the hash of the name the shade. */
void    afg_flame_color_for_name (const char    *name,
                                  AfgCategory    category,
                                  AfgFlameColor *color);

/* A frame's colour by its name and category; the root and the threads
 * get the structure grey. */
void    afg_flame_color_for_node (const AfgTree *tree,
                                  guint32        node,
                                  AfgFlameColor *color);

G_END_DECLS
