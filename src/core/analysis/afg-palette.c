/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-palette.h"

guint32
afg_flame_hash_name (const char *name)
{
  guint32 hash = 2166136261u;

  for (const guchar *p = (const guchar *) name; *p; p++)
    {
      hash ^= *p;
      hash *= 16777619u;
    }
  return hash;
}

static double
hue_to_rgb (double p, double q, double t)
{
  if (t < 0)
    t += 1;
  if (t > 1)
    t -= 1;
  if (t < 1.0 / 6)
    return p + (q - p) * 6 * t;
  if (t < 1.0 / 2)
    return q;
  if (t < 2.0 / 3)
    return p + (q - p) * (2.0 / 3 - t) * 6;
  return p;
}

static void
hsl_to_rgb (double h, double s, double l, AfgFlameColor *color)
{
  double q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  double p = 2 * l - q;

  color->red = hue_to_rgb (p, q, h + 1.0 / 3);
  color->green = hue_to_rgb (p, q, h);
  color->blue = hue_to_rgb (p, q, h - 1.0 / 3);
}

/* The HTML page uses the same rule, so both views agree on every colour:
 * a category picks the hue, the FNV-1a hash of the name picks the shade. */
void
afg_flame_hsl_for_name (const char *name, AfgCategory category, AfgFlameHsl *hsl)
{
  static const guint hues[] = {
    [AFG_CATEGORY_PYTHON] = 200,
    [AFG_CATEGORY_PYTHON_FRAMEWORK] = 30,
    [AFG_CATEGORY_CANN] = 130,
  };
  guint32 hash = afg_flame_hash_name (name);

  if (category >= AFG_CATEGORY_UNKNOWN)
    *hsl = (AfgFlameHsl) { 0, 0, 60 + hash % 15 };
  else
    *hsl = (AfgFlameHsl) { hues[category], 65, 55 + hash % 20 };
}

void
afg_flame_color_for_hsl (const AfgFlameHsl *hsl, AfgFlameColor *color)
{
  hsl_to_rgb (hsl->hue / 360.0, hsl->saturation / 100.0, hsl->lightness / 100.0, color);
}

void
afg_flame_color_for_name (const char *name, AfgCategory category, AfgFlameColor *color)
{
  AfgFlameHsl hsl;

  afg_flame_hsl_for_name (name, category, &hsl);
  afg_flame_color_for_hsl (&hsl, color);
}

void
afg_flame_color_for_node (const AfgTree *tree, guint32 node, AfgFlameColor *color)
{
  if (!afg_tree_is_frame (tree, node))
    *color = (AfgFlameColor) { AFG_FLAME_STRUCTURE_RED, AFG_FLAME_STRUCTURE_GREEN, AFG_FLAME_STRUCTURE_BLUE };
  else
    afg_flame_color_for_name (afg_tree_get_node_name (tree, node), afg_tree_get_node_category (tree, node), color);
}
