/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-histogram"

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>

#include "afg-duration-histogram.h"
#include "afg-format.h"
#include "afg-log-histogram.h"

#define AXIS_HEIGHT 16
#define MARGIN      4

struct _AfgDurationHistogram {
  GtkWidget        parent_instance;

  AfgLogHistogram *histogram;
  PangoLayout     *label;
};

G_DEFINE_FINAL_TYPE (AfgDurationHistogram, afg_duration_histogram, GTK_TYPE_WIDGET)

static double
bar_width (AfgDurationHistogram *self)
{
  return (gtk_widget_get_width (GTK_WIDGET (self)) - 2.0 * MARGIN) / MAX (self->histogram->n_buckets, 1);
}

static void
draw_axis_label (AfgDurationHistogram *self, cairo_t *cr, guint k, double x, double y)
{
  g_autofree char *text = afg_format_duration (afg_log_histogram_lower (self->histogram, k));
  int width;

  pango_layout_set_text (self->label, text, -1);
  pango_layout_get_pixel_size (self->label, &width, NULL);
  cairo_move_to (cr, CLAMP (x - width / 2.0, 0, gtk_widget_get_width (GTK_WIDGET (self)) - width), y);
  pango_cairo_show_layout (cr, self->label);
}

/* Bars in the accent blue; labels under each power of ten, as far apart
 * as they fit. */
static void
draw (AfgDurationHistogram *self, cairo_t *cr, int height)
{
  const AfgLogHistogram *h = self->histogram;
  double w = bar_width (self), plot = height - AXIS_HEIGHT - MARGIN;
  double last_label = -G_MAXDOUBLE;

  for (guint k = 0; k < h->n_buckets; k++)
    {
      double bar = plot * h->counts[k] / MAX (h->max_count, 1);

      cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
      if (h->counts[k] > 0)
        cairo_rectangle (cr, MARGIN + k * w, MARGIN + plot - MAX (bar, 1), MAX (w - 1, 1), MAX (bar, 1));
      cairo_fill (cr);
    }
  cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 1);
  for (guint k = 0; k <= h->n_buckets; k++)
    if ((h->first + (int) k) % AFG_LOG_HISTOGRAM_PER_DECADE == 0 && MARGIN + k * w - last_label > 56)
      {
        last_label = MARGIN + k * w;
        draw_axis_label (self, cr, k, last_label, height - AXIS_HEIGHT);
      }
}

static void
afg_duration_histogram_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  AfgDurationHistogram *self = AFG_DURATION_HISTOGRAM (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->histogram == NULL || self->histogram->n_buckets == 0 || width <= 0 || height <= AXIS_HEIGHT)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (self, cr, height);
  cairo_destroy (cr);
}

static gboolean
afg_duration_histogram_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard,
                                      GtkTooltip *tooltip)
{
  AfgDurationHistogram *self = AFG_DURATION_HISTOGRAM (widget);
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *text = NULL;
  int k;

  if (self->histogram == NULL || self->histogram->n_buckets == 0 || x < MARGIN)
    return FALSE;
  k = (int) ((x - MARGIN) / bar_width (self));
  if (k >= (int) self->histogram->n_buckets)
    return FALSE;
  from = afg_format_duration (afg_log_histogram_lower (self->histogram, k));
  to = afg_format_duration (afg_log_histogram_lower (self->histogram, k + 1));
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s – %s: %" PRIu64 " call",
                                       "%s – %s: %" PRIu64 " calls", self->histogram->counts[k]),
                          from, to, (uint64_t) self->histogram->counts[k]);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
afg_duration_histogram_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                                int *minimum, int *natural, int *min_baseline, int *nat_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 120 : 80;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 360 : 110;
}

static void
afg_duration_histogram_dispose (GObject *object)
{
  AfgDurationHistogram *self = AFG_DURATION_HISTOGRAM (object);

  g_clear_pointer (&self->histogram, afg_log_histogram_free);
  g_clear_object (&self->label);
  G_OBJECT_CLASS (afg_duration_histogram_parent_class)->dispose (object);
}

static void
afg_duration_histogram_class_init (AfgDurationHistogramClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_duration_histogram_dispose;
  widget_class->snapshot = afg_duration_histogram_snapshot;
  widget_class->measure = afg_duration_histogram_measure;
  widget_class->query_tooltip = afg_duration_histogram_query_tooltip;
  gtk_widget_class_set_css_name (widget_class, "durationhistogram");
}

static void
afg_duration_histogram_init (AfgDurationHistogram *self)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  self->label = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_layout_set_attributes (self->label, attrs);
  pango_attr_list_unref (attrs);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

GtkWidget *
afg_duration_histogram_new (void)
{
  return g_object_new (AFG_TYPE_DURATION_HISTOGRAM, NULL);
}

void
afg_duration_histogram_set_durations (AfgDurationHistogram *self, GArray *ns)
{
  g_return_if_fail (AFG_IS_DURATION_HISTOGRAM (self));

  g_clear_pointer (&self->histogram, afg_log_histogram_free);
  if (ns != NULL)
    self->histogram = afg_log_histogram_new ((const gint64 *) ns->data, ns->len);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint64
afg_duration_histogram_get_n_values (AfgDurationHistogram *self)
{
  g_return_val_if_fail (AFG_IS_DURATION_HISTOGRAM (self), 0);
  return self->histogram ? self->histogram->n_values : 0;
}

guint
afg_duration_histogram_get_n_buckets (AfgDurationHistogram *self)
{
  g_return_val_if_fail (AFG_IS_DURATION_HISTOGRAM (self), 0);
  return self->histogram ? self->histogram->n_buckets : 0;
}
