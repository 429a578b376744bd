/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-loading-page"

#include "config.h"


#include <glib/gi18n.h>

#include "afg-format.h"
#include "afg-loading-page.h"

struct _AfgLoadingPage {
  GtkBox          parent_instance;

  /* Template children */
  GtkLabel       *title_label;
  GtkProgressBar *bar;
  GtkLabel       *progress_label;

  AfgWorker      *worker;
};

G_DEFINE_FINAL_TYPE (AfgLoadingPage, afg_loading_page, GTK_TYPE_BOX)

static void
afg_loading_page_dispose (GObject *object)
{
  g_clear_object (&AFG_LOADING_PAGE (object)->worker);
  gtk_widget_dispose_template (GTK_WIDGET (object), AFG_TYPE_LOADING_PAGE);

  G_OBJECT_CLASS (afg_loading_page_parent_class)->dispose (object);
}

static void
afg_loading_page_class_init (AfgLoadingPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = afg_loading_page_dispose;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/ascend_flamegraph/AscendFlameGraph/afg-loading-page.ui");
  gtk_widget_class_bind_template_child (widget_class, AfgLoadingPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, AfgLoadingPage, bar);
  gtk_widget_class_bind_template_child (widget_class, AfgLoadingPage, progress_label);
}

static void
afg_loading_page_init (AfgLoadingPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->worker = afg_worker_new (self);
}

AfgWorker *
afg_loading_page_get_worker (AfgLoadingPage *self)
{
  g_return_val_if_fail (AFG_IS_LOADING_PAGE (self), NULL);

  return self->worker;
}

void
afg_loading_page_set_title (AfgLoadingPage *self, const char *title)
{
  g_return_if_fail (AFG_IS_LOADING_PAGE (self));

  gtk_label_set_text (self->title_label, title);
}

/* A new load: @title, the bar empty, "Opening the database…". */
void
afg_loading_page_begin (AfgLoadingPage *self, const char *title)
{
  g_return_if_fail (AFG_IS_LOADING_PAGE (self));

  gtk_label_set_text (self->title_label, title);
  afg_loading_page_show_progress (self, AFG_LOAD_PHASE_OPENING, 0, 0);
  gtk_progress_bar_set_fraction (self->bar, 0);
}

void
afg_loading_page_show_progress (AfgLoadingPage *self, AfgLoadPhase phase, guint64 rows, guint64 total)
{
  g_autofree char *text = NULL;

  g_return_if_fail (AFG_IS_LOADING_PAGE (self));

  if (phase == AFG_LOAD_PHASE_READING)
    {
      g_autofree char *n_rows = afg_format_count (rows);
      g_autofree char *n_total = afg_format_count (total);

      text = total > 0
        ? g_strdup_printf (_("Reading rows: %s of about %s"), n_rows, n_total)
        : g_strdup_printf (_("Reading rows: %s"), n_rows);
      gtk_progress_bar_set_fraction (self->bar, total > 0 ? MIN (1.0, (double) rows / total) : 0);
    }
  else if (phase == AFG_LOAD_PHASE_BUILDING)
    {
      text = g_strdup (_("Building the flame graph…"));
      gtk_progress_bar_set_fraction (self->bar, 1.0);
    }
  else
    text = g_strdup (_("Opening the database…"));
  gtk_label_set_text (self->progress_label, text);
}

void
afg_load_counters_store (AfgLoadPhase phase, guint64 rows, guint64 total, gpointer data)
{
  AfgLoadCounters *counters = data;

  g_atomic_int_set (&counters->phase, phase);
  __atomic_store_n (&counters->rows, rows, __ATOMIC_RELAXED);
  __atomic_store_n (&counters->total, total, __ATOMIC_RELAXED);
}

void
afg_loading_page_show_counters (AfgLoadingPage *self, const AfgLoadCounters *counters, guint n)
{
  AfgLoadPhase phase = AFG_LOAD_PHASE_BUILDING;
  guint64 rows = 0, total = 0;

  g_return_if_fail (AFG_IS_LOADING_PAGE (self));

  for (guint i = 0; i < n; i++)
    {
      phase = MIN (phase, (AfgLoadPhase) g_atomic_int_get (&counters[i].phase));
      rows += __atomic_load_n (&counters[i].rows, __ATOMIC_RELAXED);
      total += __atomic_load_n (&counters[i].total, __ATOMIC_RELAXED);
    }
  afg_loading_page_show_progress (self, phase, rows, total);
}

void
afg_loading_page_show_ranks (AfgLoadingPage *self, guint read, guint n)
{
  g_autofree char *text = g_strdup_printf (_("Reading ranks: %u of %u"), read, n);

  g_return_if_fail (AFG_IS_LOADING_PAGE (self));

  gtk_label_set_text (self->progress_label, text);
  gtk_progress_bar_set_fraction (self->bar, n > 0 ? (double) read / n : 0);
}
