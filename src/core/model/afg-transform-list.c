/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-transform"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "afg-transform-list.h"

#include "afg-names.h"

struct _AfgTransformList {
  GArray *items;   /* AfgTransform */
};

static const char * const op_names[AFG_N_TRANSFORM_OPS] = {
  [AFG_TRANSFORM_FOCUS_FUNCTION] = "focus-function",
  [AFG_TRANSFORM_FOCUS_SUBTREE] = "focus-subtree",
  [AFG_TRANSFORM_MERGE_FUNCTION] = "merge-function",
  [AFG_TRANSFORM_DROP_FUNCTION] = "drop-function",
  [AFG_TRANSFORM_COLLAPSE_RECURSION] = "collapse-recursion",
  [AFG_TRANSFORM_COLLAPSE_INDIRECT_RECURSION] = "collapse-indirect-recursion",
};

const char *
afg_transform_op_to_string (AfgTransformOp op)
{
  g_return_val_if_fail (op < AFG_N_TRANSFORM_OPS, NULL);
  return op_names[op];
}

gboolean
afg_transform_op_from_string (const char *text, AfgTransformOp *op)
{
  guint i;

  if (!afg_names_find (op_names, AFG_N_TRANSFORM_OPS, text, &i))
    return FALSE;
  *op = i;
  return TRUE;
}

static char **
path_error (GError **error, const char *path, const char *why)
{
  g_set_error (error, AFG_TRANSFORM_ERROR, AFG_TRANSFORM_ERROR_PATH, "'%s': %s", path, why);
  return NULL;
}

char **
afg_transform_path_split (const char *path, GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) name = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  for (const char *p = path;; p++)
    {
      if (*p == '\\' && (p[1] == ';' || p[1] == '\\'))
        g_string_append_c (name, *++p);
      else if (*p == '\\')
        return path_error (error, path, _("in a path, \\; stands for ';' and \\\\ for '\\'; no other escape"));
      else if (*p != ';' && *p != '\0')
        g_string_append_c (name, *p);
      else
        {
          g_ptr_array_add (names, g_strdup (name->str));
          g_string_truncate (name, 0);
        }
      if (*p == '\0')
        break;
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

char *
afg_transform_path_join (const char * const *names)
{
  GString *path = g_string_new (NULL);

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (path, ';');
      for (const char *p = names[i]; *p; p++)
        {
          if (*p == ';' || *p == '\\')
            g_string_append_c (path, '\\');
          g_string_append_c (path, *p);
        }
    }
  return g_string_free (path, FALSE);
}

static void
clear_item (gpointer data)
{
  g_free (((AfgTransform *) data)->arg);
}

AfgTransformList *
afg_transform_list_new (void)
{
  AfgTransformList *self = g_atomic_rc_box_new0 (AfgTransformList);

  self->items = g_array_new (FALSE, FALSE, sizeof (AfgTransform));
  g_array_set_clear_func (self->items, clear_item);
  return self;
}

static void
list_clear (gpointer data)
{
  g_array_unref (((AfgTransformList *) data)->items);
}

AfgTransformList *
afg_transform_list_ref (AfgTransformList *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_transform_list_unref (AfgTransformList *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, list_clear);
}

static gboolean
check_arg (AfgTransformOp op, const char *arg, GError **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(AfgFrameMatcher) matcher = NULL;

  if (op == AFG_TRANSFORM_FOCUS_SUBTREE)
    return (names = afg_transform_path_split (arg, error)) != NULL;
  return (matcher = afg_frame_matcher_new (arg, error)) != NULL;
}

gboolean
afg_transform_list_append (AfgTransformList *self, AfgTransformOp op, const char *arg, GError **error)
{
  AfgTransform item;

  g_return_val_if_fail (self != NULL && arg != NULL && op < AFG_N_TRANSFORM_OPS, FALSE);

  if (!check_arg (op, arg, error))
    return FALSE;
  item = (AfgTransform) { op, g_strdup (arg) };
  g_array_append_val (self->items, item);
  return TRUE;
}

static void
append_all (AfgTransformList *self, const AfgTransformList *from, guint n)
{
  for (guint i = 0; from != NULL && i < MIN (n, from->items->len); i++)
    {
      const AfgTransform *t = afg_transform_list_get (from, i);
      AfgTransform item = { t->op, g_strdup (t->arg) };

      g_array_append_val (self->items, item);
    }
}

AfgTransformList *
afg_transform_list_concat (const AfgTransformList *a, const AfgTransformList *b)
{
  AfgTransformList *self = afg_transform_list_new ();

  append_all (self, a, G_MAXUINT);
  append_all (self, b, G_MAXUINT);
  return self;
}

AfgTransformList *
afg_transform_list_head (const AfgTransformList *self, guint n)
{
  AfgTransformList *head = afg_transform_list_new ();

  append_all (head, self, n);
  return head;
}

guint
afg_transform_list_get_length (const AfgTransformList *self)
{
  return self != NULL ? self->items->len : 0;
}

const AfgTransform *
afg_transform_list_get (const AfgTransformList *self, guint index)
{
  g_return_val_if_fail (self != NULL && index < self->items->len, NULL);
  return &g_array_index (self->items, AfgTransform, index);
}
