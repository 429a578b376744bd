/* SPDX-License-Identifier: MIT */
#include "config.h"

#include "afg-format.h"
#include "afg-math.h"
#include "afg-profile-private.h"

static void
profile_clear (gpointer data)
{
  AfgProfile *self = data;

  g_free (self->source_path);
  g_free (self->source_name);
  g_free (self->nodes);
  g_free (self->threads);
  afg_string_table_clear (&self->strings);
}

AfgProfile *
afg_profile_new (const char *source_path, guint64 source_bytes)
{
  AfgProfile *self = g_atomic_rc_box_new0 (AfgProfile);
  g_autofree char *base = g_path_get_basename (source_path);

  self->source_name = afg_format_path (base);
  self->source_path = g_strdup (source_path);
  self->source_bytes = source_bytes;
  afg_string_table_init (&self->strings);
  return self;
}

AfgProfile *
afg_profile_ref (AfgProfile *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_profile_unref (AfgProfile *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, profile_clear);
}

const char *
afg_profile_get_source_path (const AfgProfile *self)
{
  return self->source_path;
}

const char *
afg_profile_get_source_name (const AfgProfile *self)
{
  return self->source_name;
}

guint64
afg_profile_get_source_bytes (const AfgProfile *self)
{
  return self->source_bytes;
}

const AfgStats *
afg_profile_get_stats (const AfgProfile *self)
{
  return &self->stats;
}

double
afg_profile_get_load_seconds (const AfgProfile *self)
{
  return self->load_seconds;
}

guint
afg_profile_get_n_threads (const AfgProfile *self)
{
  return self->n_threads;
}

const AfgThread *
afg_profile_get_thread (const AfgProfile *self, guint index)
{
  g_return_val_if_fail (index < self->n_threads, NULL);
  return &self->threads[index];
}

guint
afg_profile_get_n_nodes (const AfgProfile *self)
{
  return self->n_nodes;
}

const AfgNode *
afg_profile_get_nodes (const AfgProfile *self)
{
  return self->nodes;
}

const AfgNode *
afg_profile_get_node (const AfgProfile *self, guint32 index)
{
  g_return_val_if_fail (index < self->n_nodes, NULL);
  return &self->nodes[index];
}

const char *
afg_profile_get_node_name (const AfgProfile *self, guint32 index)
{
  g_return_val_if_fail (index < self->n_nodes, NULL);
  return afg_string_table_get (&self->strings, self->nodes[index].name);
}

AfgCategory
afg_profile_get_node_category (const AfgProfile *self, guint32 index)
{
  g_return_val_if_fail (index < self->n_nodes, AFG_CATEGORY_UNKNOWN);
  if (self->nodes[index].parent == AFG_NODE_NONE || self->strings.categories == NULL)
    return AFG_CATEGORY_UNKNOWN;
  return self->strings.categories[self->nodes[index].name];
}

gint64
afg_profile_get_total_ns (const AfgProfile *self)
{
  gint64 total = 0;

  for (guint i = 0; i < self->n_threads; i++)
    total = afg_sat_add (total, self->nodes[self->threads[i].root].total_ns);
  return total;
}

gboolean
afg_profile_is_empty (const AfgProfile *self)
{
  return self->n_threads == 0;
}
