/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include "afg-frame-matcher.h"
#include "afg-path-mapper.h"

typedef struct {
  AfgTransformOp   op;
  AfgFrameMatcher *matcher;  /* all but focus-subtree */
  char           **path;     /* focus-subtree */
} Step;

struct _AfgPathMapper {
  GArray *steps;   /* Step, in the list's order */
};

static void
step_clear (gpointer data)
{
  Step *step = data;

  g_clear_pointer (&step->matcher, afg_frame_matcher_free);
  g_clear_pointer (&step->path, g_strfreev);
}

AfgPathMapper *
afg_path_mapper_new (const AfgTransformList *list)
{
  g_autoptr(AfgPathMapper) self = g_new0 (AfgPathMapper, 1);
  guint n = list ? afg_transform_list_get_length (list) : 0;

  self->steps = g_array_sized_new (FALSE, TRUE, sizeof (Step), n);
  g_array_set_clear_func (self->steps, step_clear);
  for (guint i = 0; i < n; i++)
    {
      const AfgTransform *t = afg_transform_list_get (list, i);
      Step step = { t->op };

      if (t->op == AFG_TRANSFORM_FOCUS_SUBTREE)
        step.path = afg_transform_path_split (t->arg, NULL);
      else
        step.matcher = afg_frame_matcher_new (t->arg, NULL);
      if (step.path == NULL && step.matcher == NULL)
        return NULL;
      g_array_append_val (self->steps, step);
    }
  return g_steal_pointer (&self);
}

void
afg_path_mapper_free (AfgPathMapper *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->steps);
  g_free (self);
}

static gboolean
matches (const Step *step, GPtrArray *names, guint i)
{
  return afg_frame_matcher_matches (step->matcher, g_ptr_array_index (names, i));
}

/* The outermost F becomes a top frame; a path without F is left out. */
static gboolean
focus_function (const Step *step, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    if (matches (step, names, i))
      {
        g_ptr_array_remove_range (names, 0, i);
        return TRUE;
      }
  return FALSE;
}

/* The frame at PATH becomes a top frame; a path not through it is left out. */
static gboolean
focus_subtree (const Step *step, GPtrArray *names)
{
  guint n = g_strv_length (step->path);

  if (names->len < n)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (strcmp (g_ptr_array_index (names, i), step->path[i]) != 0)
      return FALSE;
  g_ptr_array_remove_range (names, 0, n - 1);
  return TRUE;
}

static void
merge_function (const Step *step, GPtrArray *names)
{
  for (guint i = names->len; i-- > 0;)
    if (matches (step, names, i))
      g_ptr_array_remove_index (names, i);
}

static gboolean
drop_function (const Step *step, GPtrArray *names)
{
  for (guint i = 0; i < names->len; i++)
    if (matches (step, names, i))
      return FALSE;
  return TRUE;
}

/* An F frame whose parent has its name merges into it. From the end, so
 * that each frame is still beside the parent it had. */
static void
collapse_recursion (const Step *step, GPtrArray *names)
{
  for (guint i = names->len; i-- > 1;)
    if (strcmp (g_ptr_array_index (names, i), g_ptr_array_index (names, i - 1)) == 0 && matches (step, names, i))
      g_ptr_array_remove_index (names, i);
}

/* Below the outermost F, an F frame merges into it with all between. */
static void
collapse_indirect (const Step *step, GPtrArray *names)
{
  guint first = 0;

  while (first < names->len && !matches (step, names, first))
    first++;
  for (guint i = first + 1; i < names->len;)
    if (matches (step, names, i))
      {
        g_ptr_array_remove_range (names, first + 1, i - first);
        i = first + 1;
      }
    else
      i++;
}

gboolean
afg_path_mapper_map (const AfgPathMapper *self, GPtrArray *names)
{
  g_return_val_if_fail (self != NULL && names != NULL, FALSE);

  for (guint s = 0; s < self->steps->len; s++)
    {
      const Step *step = &g_array_index (self->steps, Step, s);
      gboolean kept = TRUE;

      switch (step->op)
        {
        case AFG_TRANSFORM_FOCUS_FUNCTION: kept = focus_function (step, names); break;
        case AFG_TRANSFORM_FOCUS_SUBTREE: kept = focus_subtree (step, names); break;
        case AFG_TRANSFORM_MERGE_FUNCTION: merge_function (step, names); break;
        case AFG_TRANSFORM_DROP_FUNCTION: kept = drop_function (step, names); break;
        case AFG_TRANSFORM_COLLAPSE_RECURSION: collapse_recursion (step, names); break;
        case AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION: collapse_indirect (step, names); break;
        case AFG_N_TRANSFORM_OPS:
        default: g_assert_not_reached ();
        }
      if (!kept)
        return FALSE;
    }
  return TRUE;
}
