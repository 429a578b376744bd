/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-flame-layout"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-flame-layout.h"

struct _AfgFlameLayout {
  AfgProfile *profile;
  guint32     view_root;
  guint32     zoom_root;
  guint       zoom_row;
  GArray     *frames;     /* AfgFlameFrame, sorted by (row, x) */
  GArray     *row_starts; /* guint, n_rows + 1 entries */
};

typedef struct {
  guint32  node;
  gboolean under_match;
} SearchItem;

static guint
node_children (AfgProfile *profile, guint32 node, guint32 *first)
{
  const AfgNode *n;

  if (node == AFG_FLAME_ROOT_ALL)
    {
      *first = 0;
      return afg_profile_get_n_threads (profile);
    }
  n = afg_profile_get_node (profile, node);
  *first = n->first_child;
  return n->n_children;
}

static guint32
child_at (AfgProfile *profile, guint32 node, guint32 first, guint i)
{
  if (node == AFG_FLAME_ROOT_ALL)
    return afg_profile_get_thread (profile, i)->root;
  return first + i;
}

guint32
afg_flame_node_get_parent (AfgProfile *profile, guint32 view_root, guint32 node)
{
  const AfgNode *n;

  if (node == AFG_FLAME_ROOT_ALL || node == view_root)
    return AFG_NODE_NONE;
  n = afg_profile_get_node (profile, node);
  if (n->parent == AFG_NODE_NONE)
    return view_root == AFG_FLAME_ROOT_ALL ? AFG_FLAME_ROOT_ALL : AFG_NODE_NONE;
  return n->parent;
}

gint64
afg_flame_node_get_total (AfgProfile *profile, guint32 node)
{
  if (node == AFG_FLAME_ROOT_ALL)
    return afg_profile_get_total_ns (profile);
  return afg_profile_get_node (profile, node)->total_ns;
}

const char *
afg_flame_node_get_name (AfgProfile *profile, guint32 node)
{
  if (node == AFG_FLAME_ROOT_ALL)
    return _("All threads");
  return afg_profile_get_node_name (profile, node);
}

gboolean
afg_flame_node_is_descendant (AfgProfile *profile, guint32 node, guint32 ancestor)
{
  if (ancestor == AFG_FLAME_ROOT_ALL)
    return TRUE;
  for (; node != AFG_NODE_NONE && node != AFG_FLAME_ROOT_ALL;
       node = afg_profile_get_node (profile, node)->parent)
    if (node == ancestor)
      return TRUE;
  return FALSE;
}

static void
push_frame (AfgFlameLayout *self, guint32 node, guint row, double x, double width)
{
  AfgFlameFrame frame = { node, row, x, width };

  while (self->row_starts->len <= row)
    g_array_append_val (self->row_starts, self->frames->len);
  g_array_append_val (self->frames, frame);
}

static guint
add_ancestors (AfgFlameLayout *self)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 node = self->zoom_root;

  while (node != AFG_NODE_NONE)
    {
      g_array_prepend_val (chain, node);
      node = afg_flame_node_get_parent (self->profile, self->view_root, node);
    }
  for (guint i = 0; i < chain->len; i++)
    push_frame (self, g_array_index (chain, guint32, i), i, 0.0, 1.0);
  return chain->len - 1;
}

/* Level order keeps every row sorted by x: parents come left to right and
 * each parent places its children left to right inside itself. */
static void
add_descendants (AfgFlameLayout *self)
{
  double scale = afg_flame_node_get_total (self->profile, self->zoom_root);
  guint level_start = self->frames->len - 1;
  guint level_end = self->frames->len;

  if (scale <= 0)
    return;
  while (level_start < level_end)
    {
      for (guint i = level_start; i < level_end; i++)
        {
          AfgFlameFrame parent = g_array_index (self->frames, AfgFlameFrame, i);
          guint32 first;
          guint n = node_children (self->profile, parent.node, &first);
          double x = parent.x;

          for (guint c = 0; c < n; c++)
            {
              guint32 child = child_at (self->profile, parent.node, first, c);
              double width = afg_flame_node_get_total (self->profile, child) / scale;

              if (width > 0)
                push_frame (self, child, parent.row + 1, x, width);
              x += width;
            }
        }
      level_start = level_end;
      level_end = self->frames->len;
    }
}

AfgFlameLayout *
afg_flame_layout_new (AfgProfile *profile, guint32 view_root, guint32 zoom_root)
{
  AfgFlameLayout *self;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (afg_flame_node_is_descendant (profile, zoom_root, view_root), NULL);

  self = g_new0 (AfgFlameLayout, 1);
  self->profile = afg_profile_ref (profile);
  self->view_root = view_root;
  self->zoom_root = zoom_root;
  /* Each node is at most one frame, plus "All threads": never regrown. */
  self->frames = g_array_sized_new (FALSE, FALSE, sizeof (AfgFlameFrame),
                                    afg_profile_get_n_nodes (profile) + 1);
  self->row_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  self->zoom_row = add_ancestors (self);
  add_descendants (self);
  g_array_append_val (self->row_starts, self->frames->len);
  return self;
}

void
afg_flame_layout_free (AfgFlameLayout *self)
{
  if (self == NULL)
    return;
  afg_profile_unref (self->profile);
  g_array_unref (self->frames);
  g_array_unref (self->row_starts);
  g_free (self);
}

AfgProfile *
afg_flame_layout_get_profile (const AfgFlameLayout *self)
{
  return self->profile;
}

guint32
afg_flame_layout_get_view_root (const AfgFlameLayout *self)
{
  return self->view_root;
}

guint32
afg_flame_layout_get_zoom_root (const AfgFlameLayout *self)
{
  return self->zoom_root;
}

guint
afg_flame_layout_get_zoom_row (const AfgFlameLayout *self)
{
  return self->zoom_row;
}

const AfgFlameFrame *
afg_flame_layout_get_frames (const AfgFlameLayout *self, guint *n_frames)
{
  *n_frames = self->frames->len;
  return (const AfgFlameFrame *) self->frames->data;
}

guint
afg_flame_layout_get_n_rows (const AfgFlameLayout *self)
{
  return self->row_starts->len - 1;
}

guint
afg_flame_layout_get_row_start (const AfgFlameLayout *self, guint row)
{
  g_return_val_if_fail (row < self->row_starts->len, self->frames->len);
  return g_array_index (self->row_starts, guint, row);
}

guint32
afg_flame_layout_hit_test (const AfgFlameLayout *self, guint row, double x, double min_width)
{
  const AfgFlameFrame *frames = (const AfgFlameFrame *) self->frames->data;
  guint lo, hi;

  if (row >= afg_flame_layout_get_n_rows (self))
    return AFG_FLAME_NO_FRAME;
  lo = afg_flame_layout_get_row_start (self, row);
  hi = afg_flame_layout_get_row_start (self, row + 1);
  /* Find the last frame that starts at or before x. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (frames[mid].x <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == afg_flame_layout_get_row_start (self, row))
    return AFG_FLAME_NO_FRAME;
  lo--;
  if (x >= frames[lo].x + frames[lo].width || frames[lo].width < min_width)
    return AFG_FLAME_NO_FRAME;
  return lo;
}

guint32
afg_flame_layout_find_node (const AfgFlameLayout *self, guint32 node)
{
  for (guint i = 0; i < self->frames->len; i++)
    if (g_array_index (self->frames, AfgFlameFrame, i).node == node)
      return i;
  return AFG_FLAME_NO_FRAME;
}

guint32
afg_flame_layout_get_parent (const AfgFlameLayout *self, guint32 frame)
{
  const AfgFlameFrame *f = &g_array_index (self->frames, AfgFlameFrame, frame);

  if (f->row == 0)
    return AFG_FLAME_NO_FRAME;
  return afg_flame_layout_hit_test (self, f->row - 1, f->x + f->width / 2, 0);
}

guint32
afg_flame_layout_get_first_child (const AfgFlameLayout *self, guint32 frame)
{
  const AfgFlameFrame *f = &g_array_index (self->frames, AfgFlameFrame, frame);
  guint32 child;

  if (f->row < self->zoom_row)
    return afg_flame_layout_hit_test (self, f->row + 1, 0.5, 0);
  child = afg_flame_layout_hit_test (self, f->row + 1, f->x, 0);
  if (child == AFG_FLAME_NO_FRAME)
    return AFG_FLAME_NO_FRAME;
  if (afg_flame_node_get_parent (self->profile, self->view_root,
                                 g_array_index (self->frames, AfgFlameFrame, child).node) != f->node)
    return AFG_FLAME_NO_FRAME;
  return child;
}

guint8 *
afg_flame_search_match (AfgProfile *profile, const char *needle)
{
  guint n = afg_profile_get_n_nodes (profile);
  guint8 *matches = g_new0 (guint8, n);

  if (needle == NULL || needle[0] == '\0')
    return matches;
  for (guint i = 0; i < n; i++)
    matches[i] = strcasestr (afg_profile_get_node_name (profile, i), needle) != NULL;
  return matches;
}

/* Counts every match under @root, but adds the time of a match only when
 * no ancestor matched, so nested matches are not counted twice. */
void
afg_flame_search_summarize (AfgProfile *profile, const guint8 *matches, guint32 root,
                            AfgFlameSearchResult *result)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (SearchItem));
  SearchItem item = { root, FALSE };

  memset (result, 0, sizeof *result);
  result->view_ns = afg_flame_node_get_total (profile, root);
  g_array_append_val (stack, item);
  while (stack->len > 0)
    {
      guint32 first;
      guint n;
      gboolean hit;

      item = g_array_index (stack, SearchItem, stack->len - 1);
      g_array_set_size (stack, stack->len - 1);
      hit = item.node != AFG_FLAME_ROOT_ALL && matches[item.node];
      result->n_matches += hit;
      if (hit && !item.under_match)
        result->matched_ns += afg_flame_node_get_total (profile, item.node);
      n = node_children (profile, item.node, &first);
      for (guint c = 0; c < n; c++)
        {
          SearchItem child = { child_at (profile, item.node, first, c), hit || item.under_match };
          g_array_append_val (stack, child);
        }
    }
}

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
afg_flame_color_for_name (const char *name, AfgCategory category, AfgFlameColor *color)
{
  static const double hues[] = {
    [AFG_CATEGORY_PYTHON] = 200,
    [AFG_CATEGORY_PYTHON_FRAMEWORK] = 30,
    [AFG_CATEGORY_CANN] = 130,
  };
  guint32 hash = afg_flame_hash_name (name);

  if (category >= AFG_CATEGORY_UNKNOWN)
    hsl_to_rgb (0, 0, (60 + hash % 15) / 100.0, color);
  else
    hsl_to_rgb (hues[category] / 360.0, 0.65, (55 + hash % 20) / 100.0, color);
}
