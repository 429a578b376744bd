/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <glib/gi18n.h>

#include "afg-address.h"
#include "afg-bisect.h"
#include "afg-document-private.h"
#include "afg-format.h"
#include "afg-thread-role.h"

static void
document_clear (gpointer data)
{
  AfgDocument *self = data;

  g_free (self->source_path);
  g_free (self->source_name);
  afg_event_store_free (self->events);
  g_clear_pointer (&self->steps, g_array_unref);
  g_clear_pointer (&self->step_tids, g_array_unref);
  g_free (self->thread_roles);
  g_free (self->thread_titles);
  g_free (self->merged_names);
  afg_npu_data_free (self->npu);
  g_free (self->npu_warning);
  afg_chart_tasks_free (self->chart_tasks);
  g_ptr_array_unref (self->kind_warnings);
  _afg_document_clear_timeline (self);
  afg_string_table_clear (&self->strings);
}

AfgDocument *
afg_document_new (const char *source_path, guint64 source_bytes)
{
  AfgDocument *self = g_atomic_rc_box_new0 (AfgDocument);
  g_autofree char *base = g_path_get_basename (source_path);

  self->source_name = afg_format_path (base);
  self->source_path = g_strdup (source_path);
  self->source_bytes = source_bytes;
  self->kind_warnings = g_ptr_array_new_with_free_func (g_free);
  self->events = afg_event_store_new ();
  self->steps = g_array_new (FALSE, FALSE, sizeof (AfgStep));
  self->step_tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_mutex_init (&self->idle_lock);
  afg_string_table_init (&self->strings);
  return self;
}

static void
merge_addresses (AfgDocument *self)
{
  guint n = self->strings.strings->len;

  self->merged_names = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      g_autofree char *merged = afg_address_merge (afg_string_table_get (&self->strings, i));

      self->merged_names[i] = merged ? afg_string_table_add (&self->strings, merged) : i;
    }
  /* Merged names are free of addresses: they map to themselves. */
  self->merged_names = g_renew (guint32, self->merged_names, MAX (self->strings.strings->len, 1));
  for (guint32 i = n; i < self->strings.strings->len; i++)
    self->merged_names[i] = i;
}

static void
assign_roles (AfgDocument *self)
{
  guint n = self->strings.strings->len;
  g_autofree guint8 *name_roles = g_new (guint8, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    name_roles[i] = (guint8) afg_thread_role_of_name (afg_string_table_get (&self->strings, i));
  self->thread_roles = g_new0 (guint8, MAX (afg_event_store_get_n_threads (self->events), 1));
  afg_thread_roles_assign (self->events, name_roles, (const gint64 *) self->step_tids->data,
                           self->step_tids->len, self->thread_roles);
  g_clear_pointer (&self->step_tids, g_array_unref);
}

/* The titles are strings of the document so that a tree's threads can
 * point at them for as long as the tree lives. */
static void
add_thread_titles (AfgDocument *self)
{
  guint n = afg_event_store_get_n_threads (self->events);

  self->thread_titles = g_new0 (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const AfgEventThread *t = afg_event_store_get_thread (self->events, i);
      g_autofree char *title = afg_thread_role_describe (self->thread_roles[i],
                                                         afg_string_table_get (&self->strings, t->label));

      self->thread_titles[i] = afg_string_table_add (&self->strings, title);
    }
}

void
afg_document_seal (AfgDocument *self)
{
  self->root_name = afg_string_table_add (&self->strings, _("All threads"));
  for (guint i = 0; i < afg_event_store_get_n_threads (self->events); i++)
    {
      const AfgEventThread *t = afg_event_store_get_thread (self->events, i);
      g_autofree char *label = g_strdup_printf ("%u/%u", t->pid, t->tid);

      afg_event_store_set_label (self->events, i, afg_string_table_add (&self->strings, label));
    }
  assign_roles (self);
  add_thread_titles (self);
  merge_addresses (self);
  afg_string_table_freeze (&self->strings);
}

AfgDocument *
afg_document_ref (AfgDocument *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

void
afg_document_unref (AfgDocument *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, document_clear);
}

const char *
afg_document_get_source_path (const AfgDocument *self)
{
  return self->source_path;
}

const char *
afg_document_get_source_name (const AfgDocument *self)
{
  return self->source_name;
}

guint64
afg_document_get_source_bytes (const AfgDocument *self)
{
  return self->source_bytes;
}

double
afg_document_get_load_seconds (const AfgDocument *self)
{
  return self->load_seconds;
}

const AfgStats *
afg_document_get_load_stats (const AfgDocument *self)
{
  return &self->stats;
}

const AfgEventStore *
afg_document_get_events (const AfgDocument *self)
{
  return self->events;
}

const AfgStep *
afg_document_get_steps (const AfgDocument *self, guint *n_steps)
{
  *n_steps = self->steps->len;
  return (const AfgStep *) self->steps->data;
}

const AfgStep *
afg_document_find_step (const AfgDocument *self, gint64 id)
{
  const AfgStep *steps = (const AfgStep *) self->steps->data;
  guint lo = 0, hi = self->steps->len;

  AFG_BISECT (guint, lo, hi, mid, steps[mid].id < id);
  return lo < self->steps->len && steps[lo].id == id ? &steps[lo] : NULL;
}

guint
afg_document_get_n_strings (const AfgDocument *self)
{
  return self->strings.strings->len;
}

const char *
afg_document_get_string (const AfgDocument *self, guint32 index)
{
  return afg_string_table_get (&self->strings, index);
}

AfgCategory
afg_document_get_category (const AfgDocument *self, guint32 index)
{
  g_return_val_if_fail (index < self->strings.strings->len, AFG_CATEGORY_UNKNOWN);
  return afg_string_table_get_category ((AfgStringTable *) &self->strings, index);
}

guint32
afg_document_get_merged_name (const AfgDocument *self, guint32 index)
{
  return self->merged_names[index];
}

guint32
afg_document_get_root_name (const AfgDocument *self)
{
  return self->root_name;
}

const AfgNpuStats *
afg_document_get_npu_stats (const AfgDocument *self)
{
  return self->npu != NULL ? &self->npu->stats : NULL;
}

/* Thread @index's vector of @per_thread (one per thread of the NPU
 * data), empty without NPU data or past the last thread. */
static gconstpointer
thread_entries (const AfgDocument *self, const AfgVec *per_thread, guint index, guint *n_entries)
{
  *n_entries = 0;
  if (self->npu == NULL || index >= self->npu->n_threads)
    return NULL;
  *n_entries = (guint) per_thread[index].len;
  return per_thread[index].data;
}

const AfgNpuEntry *
afg_document_get_npu_entries (const AfgDocument *self, guint index, guint *n_entries)
{
  return thread_entries (self, self->npu ? self->npu->threads : NULL, index, n_entries);
}

const AfgChartTasks *
afg_document_get_chart_tasks (const AfgDocument *self)
{
  return self->chart_tasks;
}

const char *
afg_document_get_npu_warning (const AfgDocument *self)
{
  return self->npu_warning;
}

const AfgNpuKindStats *
afg_document_get_npu_kind_stats (const AfgDocument *self)
{
  return self->npu != NULL ? &self->npu->kind_stats : NULL;
}

const AfgNpuKindEntry *
afg_document_get_npu_kind_entries (const AfgDocument *self, guint index, guint *n_entries)
{
  return thread_entries (self, self->npu ? self->npu->kind_threads : NULL, index, n_entries);
}

const AfgNpuKernel *
afg_document_get_npu_kernels (const AfgDocument *self)
{
  return self->npu != NULL ? (const AfgNpuKernel *) self->npu->kernels.data : NULL;
}

const GPtrArray *
afg_document_get_kind_warnings (const AfgDocument *self)
{
  return self->kind_warnings;
}

AfgThreadRole
afg_document_get_thread_role (const AfgDocument *self, guint index)
{
  g_return_val_if_fail (index < afg_event_store_get_n_threads (self->events), AFG_THREAD_ROLE_NONE);
  return (AfgThreadRole) self->thread_roles[index];
}

const char *
afg_document_get_thread_title (const AfgDocument *self, guint index)
{
  g_return_val_if_fail (index < afg_event_store_get_n_threads (self->events), NULL);
  return afg_string_table_get (&self->strings, self->thread_titles[index]);
}
