/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-stack-chart"

#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <glib/gi18n.h>

#include "afg-bisect.h"
#include "afg-box-batch.h"
#include "afg-flame-search.h"
#include "afg-document-timeline.h"
#include "afg-format.h"
#include "afg-huge.h"
#include "afg-math.h"
#include "afg-palette.h"
#include "afg-scrollable.h"
#include "afg-widget-input.h"
#include "afg-stack-chart.h"
#include "afg-task-kinds.h"

#define AXIS_HEIGHT 34.0
#define ROW_HEIGHT 16.0
#define LANE_GAP 6.0
#define GUTTER 150.0
#define MIN_LABEL_WIDTH 24.0
#define MIN_VIEW_NS 100
#define MAX_LINKS 2000

/* A step in time order: one lane per host thread (its rows stacked by
 * depth) above one lane per device stream and one for the collectives,
 * on a time axis over the scope. Only what is visible is visited (the
 * store's index by time); where many boxes fall in one pixel column the
 * column is filled once and the walk jumps to the next column. Labels
 * are laid out once per name and clipped to their box. */

typedef enum {
  HIT_NONE,
  HIT_ROW,
  HIT_TASK,
} HitKind;

typedef struct {
  HitKind      kind;
  guint        lane;
  guint        thread;  /* HIT_ROW */
  guint64      event;
  AfgChartTask task;    /* HIT_TASK; for a row its start and end */
} Hit;

/* A lane's place: host threads first, then the device lanes. */
typedef struct {
  gboolean host;
  guint    index;   /* thread or device lane */
  double   y;       /* from the top of the lanes, unscrolled */
  double   height;
} LaneGeom;

struct _AfgStackChart {
  GtkWidget      parent_instance;

  AfgChartStore *store;
  gboolean       merge;
  gint64         scope_start;
  gint64         scope_end;
  gint64         view_start;
  gint64         view_end;
  GArray        *lanes;        /* LaneGeom */
  double         content_height;  /* of the host lanes, which scroll */
  double         band_height;     /* of the device lanes, kept at the bottom */
  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  GtkScrollablePolicy hscroll_policy;
  GtkScrollablePolicy vscroll_policy;
  gboolean       syncing;      /* the adjustments follow the view */
  Hit            hover;
  double         pointer_x;
  gboolean       has_selected;
  guint          selected_thread;
  guint64        selected_event;
  guint          instance_thread;
  GArray        *instances;    /* guint64 events, or NULL */
  int            instance;     /* the one shown last, -1 */
  GHashTable    *layouts;      /* name -> PangoLayout */
  GArray        *colors;       /* guint32 by name: packed rgb + 1, 0 until asked */
  char          *search;       /* folded, or NULL: the boxes whose names lack it are dimmed */
  GArray        *search_hits;  /* gint8 by name: 1 or 0, -1 until asked */
  guint32        dim_to;       /* packed rgb of the background, which dimmed boxes fade to */
  guint          n_dimmed;
  AfgBoxBatch   *batch;        /* of the lanes being drawn */
  guint          n_drawn;
  gint64         drag_start;
  gint64         paint_start;   /* µs, of the frame being painted after a change */
  gint64         draw_us;       /* the last picture's drawing */
  gint64         paint_cpu;     /* the thread's CPU µs at the frame's start */
  gint64         draw_cpu;      /* and in the last picture's drawing */
  cairo_surface_t *picture;     /* all but the hover's links, until something else changes: */
  cairo_surface_t *canvas;      /* drawn again in place */
  int            width;         /* as allocated: asked once per box, gtk_widget_get_width() costs */
  gboolean       changed;       /* the view changed since the last frame */
  gulong         paint_handlers[2];
};

static void afg_stack_chart_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (AfgStackChart, afg_stack_chart, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, afg_stack_chart_scrollable_init))

enum {
  PROP_0,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
  N_PROPS
};

enum {
  VIEW_CHANGED,
  ROW_SELECTED,
  HOVER_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The step strip's colours for the device's kinds (compute,
 * communication, other), by AfgTaskKind. */
static const guint32 kind_colors[AFG_N_TASK_KINDS] = {
  [AFG_TASK_KIND_COMMUNICATION] = 0x9141ac,  /* purple 3 */
  [AFG_TASK_KIND_COMPUTE] = 0x33d17a,        /* green 3 */
  [AFG_TASK_KIND_OTHER] = 0x9a9996,          /* dark 1 */
};
#define HIGHLIGHT_COLOR 0x3584e4  /* blue 3 */

/* The calling thread's CPU time in µs: on a machine shared with other
 * work the wall time of a frame says more about the others. */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* ---- geometry ---- */

/* Pixel arithmetic without libm, which nothing else here links. */
static double
floor_px (double x)
{
  double t = (double) (gint64) x;

  return t > x ? t - 1 : t;
}

static gint64
ceil_ns (double x)
{
  gint64 t = (gint64) x;

  return t < x ? t + 1 : t;
}

static double
zoom_factor (double dy)
{
  double factor = 1;

  for (double k = 0; k < (dy < 0 ? -dy : dy) && k < 20; k++)
    factor *= dy < 0 ? 1.25 : 0.8;
  return factor;
}

static double
plot_width (AfgStackChart *self)
{
  return MAX (1.0, self->width - GUTTER);
}

static double
ns_per_px (AfgStackChart *self)
{
  return (self->view_end - self->view_start) / plot_width (self);
}

static double
x_of (AfgStackChart *self, gint64 t)
{
  return GUTTER + (t - self->view_start) / ns_per_px (self);
}

static gint64
time_of (AfgStackChart *self, double x)
{
  return self->view_start + ceil_ns ((x - GUTTER) * ns_per_px (self));
}

static double
scroll_y (AfgStackChart *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/* Where the device lanes begin: they stay in view under the host
 * lanes, which scroll, so that a task and its launching row show together. */
static double
band_top (AfgStackChart *self)
{
  return gtk_widget_get_height (GTK_WIDGET (self)) - self->band_height;
}

/* The top of a lane in widget coordinates. */
static double
lane_top (AfgStackChart *self, const LaneGeom *lane)
{
  return lane->host ? AXIS_HEIGHT + lane->y - scroll_y (self) : band_top (self) + lane->y;
}

static void
layout_lanes (AfgStackChart *self)
{
  double y = LANE_GAP;

  g_array_set_size (self->lanes, 0);
  if (self->store == NULL)
    {
      self->content_height = self->band_height = 0;
      return;
    }
  for (guint t = 0; t < afg_chart_store_get_n_threads (self->store); t++)
    {
      LaneGeom lane = { TRUE, t, y, MAX (1, afg_chart_store_get_n_depths (self->store, t)) * ROW_HEIGHT };

      g_array_append_val (self->lanes, lane);
      y += lane.height + LANE_GAP;
    }
  self->content_height = y;
  y = afg_chart_store_get_n_lanes (self->store) > 0 ? LANE_GAP : 0;
  for (guint l = 0; l < afg_chart_store_get_n_lanes (self->store); l++)
    {
      LaneGeom lane = { FALSE, l, y, ROW_HEIGHT };

      g_array_append_val (self->lanes, lane);
      y += lane.height + LANE_GAP;
    }
  self->band_height = y;
}

static const LaneGeom *
find_lane (AfgStackChart *self, double y, gboolean host, guint index)
{
  for (guint i = 0; i < self->lanes->len; i++)
    {
      const LaneGeom *lane = &g_array_index (self->lanes, LaneGeom, i);
      double top = lane_top (self, lane);

      if (y < 0 ? lane->host == host && lane->index == index
                : lane->host == (y < band_top (self)) && y >= top && y < top + lane->height)
        return lane;
    }
  return NULL;
}

/* The picture is drawn again at the next frame. */
static void
invalidate (AfgStackChart *self)
{
  self->picture = NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* ---- adjustments ---- */

static void
sync_adjustments (AfgStackChart *self)
{
  double height = MAX (1, gtk_widget_get_height (GTK_WIDGET (self)) - AXIS_HEIGHT - self->band_height);

  self->syncing = TRUE;
  if (self->hadjustment != NULL)
    {
      double len = MAX (1, self->scope_end - self->scope_start);
      double page = self->store ? self->view_end - self->view_start : len;

      gtk_adjustment_configure (self->hadjustment, self->store ? self->view_start - self->scope_start : 0, 0, len,
                                page * 0.1, page * 0.9, page);
    }
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment,
                              CLAMP (gtk_adjustment_get_value (self->vadjustment), 0,
                                     MAX (0, self->content_height - height)),
                              0, MAX (self->content_height, height), ROW_HEIGHT * 3, height * 0.9, height);
  self->syncing = FALSE;
}

static void
on_hadjustment_changed (GtkAdjustment *adjustment, AfgStackChart *self)
{
  gint64 len = self->view_end - self->view_start;
  gint64 start;

  if (self->syncing || self->store == NULL)
    return;
  start = self->scope_start + (gint64) gtk_adjustment_get_value (adjustment);
  afg_stack_chart_set_view (self, start, start + len);
}

static void
on_vadjustment_changed (GtkAdjustment *adjustment, AfgStackChart *self)
{
  if (!self->syncing)
    invalidate (self);
}

static void
set_adjustment (AfgStackChart *self, GtkAdjustment **slot, GtkAdjustment *adjustment, GCallback callback)
{
  if (*slot == adjustment)
    return;
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, self);
  g_clear_object (slot);
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", callback, self);
  sync_adjustments (self);
}

/* ---- colours and labels ---- */

/* 0xRRGGBB */
static guint32
row_color (AfgStackChart *self, guint32 name)
{
  AfgDocument *document = afg_chart_store_get_document (self->store);
  guint32 *packed;

  /* By name, in an array: the first frame asks for thousands of names. */
  if (name >= self->colors->len)
    g_array_set_size (self->colors, MAX (name + 1, afg_document_get_n_strings (document)));
  packed = &g_array_index (self->colors, guint32, name);
  if (*packed == 0)
    {
      AfgFlameColor c;

      afg_flame_color_for_name (afg_document_get_string (document, name), afg_document_get_category (document, name),
                                &c);
      *packed = 1 + ((guint) (c.red * 255) << 16 | (guint) (c.green * 255) << 8 | (guint) (c.blue * 255));
    }
  return *packed - 1;
}

static const char *
name_text (AfgStackChart *self, guint32 name)
{
  return name == AFG_DEVICE_NO_NAME ? "?" : afg_document_get_string (afg_chart_store_get_document (self->store), name);
}

static PangoLayout *
label_layout (AfgStackChart *self, guint32 name)
{
  PangoLayout *layout = g_hash_table_lookup (self->layouts, GUINT_TO_POINTER (name));

  if (layout == NULL)
    {
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), name_text (self, name));
      g_hash_table_insert (self->layouts, GUINT_TO_POINTER (name), layout);
    }
  return layout;
}

static void
draw_label (cairo_t *cr, guint32 name, double x, double y, double w, gpointer data)
{
  PangoLayout *layout = label_layout (data, name);
  int text_h;

  pango_layout_get_pixel_size (layout, NULL, &text_h);
  cairo_save (cr);
  cairo_rectangle (cr, x + 2, y, w - 4, ROW_HEIGHT);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.85);
  cairo_move_to (cr, x + 3, y + (ROW_HEIGHT - 1 - text_h) / 2);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
}

/* ---- drawing the boxes ---- */

typedef struct {
  AfgStackChart *self;
  cairo_t       *cr;
  double         y;
  guint          thread;
  gint64         from;    /* where this walk began */
  gint64         resume;  /* where the walk goes on after a pixel column, or 0 */
  double         filled_to;  /* the pixel column filled last ends here */
  guint          skipped;    /* boxes skipped since, in a row */
  double         drawn_to;   /* the boxes of this row end here */
} DrawRun;

/* A box the search does not name fades to the background, as the flame
 * graph's do: the same colour batch, no alpha. */
#define DIM_ALPHA 0.22

static gboolean
search_misses (AfgStackChart *self, guint32 name)
{
  guint n_strings;
  gint8 *hit;

  if (self->search == NULL)
    return FALSE;
  n_strings = afg_document_get_n_strings (afg_chart_store_get_document (self->store));
  /* A task without a name (AFG_DEVICE_NO_NAME) is named by no search. */
  if (name >= n_strings)
    return TRUE;
  if (self->search_hits->len < n_strings)
    {
      guint old = self->search_hits->len;

      g_array_set_size (self->search_hits, n_strings);
      memset (self->search_hits->data + old, 0xff, n_strings - old);
    }
  hit = &g_array_index (self->search_hits, gint8, name);
  if (*hit < 0)
    *hit = afg_flame_search_name_has (name_text (self, name), self->search);
  return *hit == 0;
}

static guint32
box_color (AfgStackChart *self, guint32 rgb, guint32 name)
{
  guint32 mixed = 0;

  if (!search_misses (self, name))
    return rgb;
  self->n_dimmed++;
  for (int shift = 0; shift <= 16; shift += 8)
    {
      double c = ((rgb >> shift) & 0xff) * DIM_ALPHA + ((self->dim_to >> shift) & 0xff) * (1 - DIM_ALPHA);

      mixed |= (guint32) (c + 0.5) << shift;
    }
  return mixed;
}

static gboolean
is_instance (AfgStackChart *self, guint thread, guint64 event)
{
  guint lo = 0, hi;

  if (self->instances == NULL || thread != self->instance_thread)
    return FALSE;
  hi = self->instances->len;
  AFG_BISECT (guint, lo, hi, mid, g_array_index (self->instances, guint64, mid) < event);
  return lo < self->instances->len && g_array_index (self->instances, guint64, lo) == event;
}

/* Draws a box of [@start, @end) at @run->y. A box under a pixel wide
 * fills its pixel column once; the boxes after it in a filled column are
 * skipped, and after MAX_SKIPPED of them in a row the walk stops
 * (FALSE) to go on past the column with a binary search
 * (@run->resume). */
#define MAX_SKIPPED 32

typedef enum {
  BOX_DRAW,
  BOX_SKIP,
  BOX_STOP,
} BoxFate;

/* Before anything is looked up for the box. */
static BoxFate
box_fate (DrawRun *run, gint64 start, gint64 end)
{
  AfgStackChart *self = run->self;
  double x0 = MAX (x_of (self, start), GUTTER);

  if (x0 >= run->filled_to || x_of (self, end) - x0 >= 1.0)
    return BOX_DRAW;
  if (++run->skipped <= MAX_SKIPPED)
    return BOX_SKIP;
  run->resume = MAX (time_of (self, run->filled_to), run->from + 1);
  return BOX_STOP;
}

static void
draw_box (DrawRun *run, gint64 start, gint64 end, guint32 rgb, guint32 name)
{
  AfgStackChart *self = run->self;
  double right = self->width;
  double x0 = MAX (x_of (self, start), GUTTER);
  double x1 = MIN (x_of (self, end), right);

  self->n_drawn++;
  run->skipped = 0;
  /* A box over the ones before it (tasks of a stream may overlap) hides
   * their labels, as when each box was drawn at once. */
  if (x0 < run->drawn_to - 1)
    afg_box_batch_flush (self->batch, run->cr, draw_label, self);
  run->drawn_to = MAX (run->drawn_to, x1);
  if (x1 - x0 < 1.0)
    {
      double column = floor_px (x0);

      afg_box_batch_add_box (self->batch, rgb, column, run->y, 1, ROW_HEIGHT - 1);
      run->filled_to = column + 1;
      return;
    }
  afg_box_batch_add_box (self->batch, rgb, x0, run->y, x1 - x0 - (x1 - x0 > 3 ? 1 : 0), ROW_HEIGHT - 1);
  if (x1 - x0 >= MIN_LABEL_WIDTH)
    afg_box_batch_add_label (self->batch, name, x0, run->y, x1 - x0);
}

static gboolean
draw_row (guint64 event, const AfgChartRow *row, gpointer data)
{
  DrawRun *run = data;
  AfgStackChart *self = run->self;
  AfgDocument *document = afg_chart_store_get_document (self->store);
  BoxFate fate = box_fate (run, row->start, row->end);
  guint32 name;
  double x0, w;

  if (fate != BOX_DRAW)
    return fate == BOX_SKIP;
  name = afg_event_store_get_thread (afg_document_get_events (document), run->thread)->events[event].name;
  if (self->merge)
    name = afg_document_get_merged_name (document, name);
  draw_box (run, row->start, row->end, box_color (self, row_color (self, name), name), name);
  x0 = MAX (x_of (self, row->start), GUTTER);
  w = MAX (x_of (self, row->end) - x0, 1);
  if (is_instance (self, run->thread, event))
    afg_box_batch_add_outline (self->batch, HIGHLIGHT_COLOR, x0, run->y, w, ROW_HEIGHT - 1, 2);
  if (self->has_selected && self->selected_thread == run->thread && self->selected_event == event)
    afg_box_batch_add_outline (self->batch, 0x000000, x0, run->y, w, ROW_HEIGHT - 1, 2);
  return TRUE;
}

static gboolean
draw_task (const AfgChartTask *task, gpointer data)
{
  DrawRun *run = data;
  BoxFate fate = box_fate (run, task->start, task->end);

  if (fate != BOX_DRAW)
    return fate == BOX_SKIP;
  draw_box (run, task->start, task->end, box_color (run->self, kind_colors[task->kind], task->name), task->name);
  return TRUE;
}

/* Walks one row of boxes from the view's start, again after each pixel
 * column filled. */
static void
draw_run (DrawRun *run, gboolean host, guint index, guint depth)
{
  AfgStackChart *self = run->self;
  gint64 from = self->view_start;

  run->drawn_to = 0;
  do
    {
      run->resume = 0;
      run->from = from;
      run->filled_to = 0;
      run->skipped = 0;
      if (host)
        afg_chart_store_visit_rows (self->store, index, depth, from, self->view_end, draw_row, run);
      else
        afg_chart_store_visit_task_boxes (self->store, index, from, self->view_end, draw_task, run);
      from = run->resume;
    }
  while (run->resume != 0 && run->resume < self->view_end);
}

static void
draw_lane (AfgStackChart *self, cairo_t *cr, const LaneGeom *lane, double height)
{
  double top = lane_top (self, lane);
  DrawRun run = { self, cr, top, lane->index, 0, 0, 0, 0, 0 };

  if (top + lane->height < AXIS_HEIGHT || top > height)
    return;
  if (!lane->host)
    {
      draw_run (&run, FALSE, lane->index, 0);
      return;
    }
  for (guint d = 0; d < afg_chart_store_get_n_depths (self->store, lane->index); d++)
    {
      run.y = top + d * ROW_HEIGHT;
      if (run.y + ROW_HEIGHT >= AXIS_HEIGHT && run.y <= height)
        draw_run (&run, TRUE, lane->index, d);
    }
}

/* ---- the rest of the picture ---- */

/* Adds [@x0, @x1) to the pixel columns it covers, in part or whole. */
static void
add_cover (float *cover, guint n_columns, double x0, double x1)
{
  for (guint c = (guint) x0; c < n_columns && c < x1; c++)
    cover[c] += MIN (x1, c + 1.0) - MAX (x0, (double) c);
}

/* The device's free time, shaded: a span under a pixel as one pixel, as
 * before, but each pixel column filled once, as much as the spans cover
 * it: one path of a rectangle per span costs cairo the scan conversion
 * of thousands of them at every frame. */
static void
draw_idle (AfgStackChart *self, cairo_t *cr, double height)
{
  guint n_columns = (guint) MAX (0, self->width - (int) GUTTER);
  const AfgSpans *idle = afg_document_get_free_spans (afg_chart_store_get_document (self->store));
  const AfgSpan *spans;
  g_autofree float *cover = NULL;
  gsize n;

  if (idle == NULL || n_columns == 0)
    return;
  spans = afg_spans_get (idle, &n);
  cover = g_new0 (float, n_columns);
  for (gsize i = afg_spans_first_ending_after (idle, self->view_start); i < n && spans[i].start < self->view_end; i++)
    {
      double x0 = MAX (x_of (self, spans[i].start), GUTTER) - GUTTER;
      double x1 = MIN (x_of (self, spans[i].end), self->width) - GUTTER;

      add_cover (cover, n_columns, x0, MAX (x1, x0 + 1));
    }
  for (guint c = 0, next; c < n_columns; c = next)
    {
      /* A run of columns of the same shade, in 64 steps. */
      int level = (int) (MIN (cover[c], 1.0f) * 64 + 0.5f);

      for (next = c + 1; next < n_columns && (int) (MIN (cover[next], 1.0f) * 64 + 0.5f) == level; next++)
        ;
      if (level == 0)
        continue;
      cairo_set_source_rgba (cr, 0.878, 0.106, 0.141, 0.08 * level / 64);  /* red 3, faint: the NPU is free */
      cairo_rectangle (cr, GUTTER + c, 0, next - c, height);
      cairo_fill (cr);
    }
}

static void
draw_steps (AfgStackChart *self, cairo_t *cr, double height, const GdkRGBA *fg)
{
  guint n;
  const AfgStep *steps = afg_document_get_steps (afg_chart_store_get_document (self->store), &n);

  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = NULL;
      PangoLayout *layout;

      if (steps[i].end_ns < self->view_start || steps[i].start_ns > self->view_end)
        continue;
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.5);
      for (guint k = 0; k < 2; k++)
        {
          double x = floor_px (x_of (self, k == 0 ? steps[i].start_ns : steps[i].end_ns) + 0.5) + 0.5;

          if (x < GUTTER)
            continue;
          cairo_move_to (cr, x, 0);
          cairo_line_to (cr, x, height);
          cairo_stroke (cr);
        }
      /* Translators: a step's mark on the stack chart's time axis */
      text = g_strdup_printf (_("step %" PRId64), steps[i].id);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      cairo_move_to (cr, MAX (x_of (self, steps[i].start_ns), GUTTER) + 3, 1);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

/* A tick every 1, 2 or 5 times a power of ten ns, at least 90 px apart. */
static gint64
tick_ns (AfgStackChart *self)
{
  double want = ns_per_px (self) * 90;
  gint64 step = 1;

  while (step < want)
    {
      if (step * 2 >= want)
        return step * 2;
      if (step * 5 >= want)
        return step * 5;
      step *= 10;
    }
  return step;
}

static void
draw_axis (AfgStackChart *self, cairo_t *cr, const GdkRGBA *fg, const GdkRGBA *bg)
{
  gint64 tick = tick_ns (self);
  gint64 first = self->scope_start + ((self->view_start - self->scope_start) / tick) * tick;

  cairo_set_source_rgba (cr, bg->red, bg->green, bg->blue, 1);
  cairo_rectangle (cr, 0, 0, gtk_widget_get_width (GTK_WIDGET (self)), AXIS_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
  cairo_set_line_width (cr, 1);
  for (gint64 t = first; t <= self->view_end; t += tick)
    {
      g_autofree char *text = NULL;
      PangoLayout *layout;
      double x = floor_px (x_of (self, t) + 0.5) + 0.5;

      if (x < GUTTER)
        continue;
      cairo_move_to (cr, x, AXIS_HEIGHT - 4);
      cairo_line_to (cr, x, AXIS_HEIGHT);
      cairo_stroke (cr);
      text = afg_format_duration (t - self->scope_start);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      cairo_move_to (cr, x + 2, AXIS_HEIGHT - 19);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

static char *
lane_label (AfgStackChart *self, const LaneGeom *lane)
{
  const AfgChartLane *device;
  g_autofree char *device_id = NULL;
  g_autofree char *stream_id = NULL;

  /* A thread by its role where it has one, pid/tid beside. */
  if (lane->host)
    return g_strdup (afg_document_get_thread_title (afg_chart_store_get_document (self->store), lane->index));
  device = afg_chart_store_get_lane (self->store, lane->index);
  if (device->collectives)
    return g_strdup (_("Collectives"));
  /* A NULL or non-integer id is "?", as in the trace. */
  device_id = device->device_id == AFG_DEVICE_UNKNOWN ? g_strdup ("?")
                                                     : g_strdup_printf ("%" PRId64, device->device_id);
  stream_id = device->stream_id == AFG_DEVICE_UNKNOWN ? g_strdup ("?")
                                                     : g_strdup_printf ("%" PRId64, device->stream_id);
  /* Translators: a device lane of the stack chart: "NPU 0 · stream 2" */
  return g_strdup_printf (_("NPU %s · stream %s"), device_id, stream_id);
}

static void
draw_gutter (AfgStackChart *self, cairo_t *cr, const GdkRGBA *fg, const GdkRGBA *bg, double height)
{
  cairo_set_source_rgba (cr, bg->red, bg->green, bg->blue, 1);
  cairo_rectangle (cr, 0, AXIS_HEIGHT, GUTTER, band_top (self) - AXIS_HEIGHT);
  cairo_fill (cr);
  for (guint i = 0; i < self->lanes->len; i++)
    {
      const LaneGeom *lane = &g_array_index (self->lanes, LaneGeom, i);
      double top = lane_top (self, lane);
      g_autofree char *text = NULL;
      PangoLayout *layout;

      if (lane->host && (top + lane->height < AXIS_HEIGHT || top > band_top (self) - ROW_HEIGHT))
        continue;
      text = lane_label (self, lane);
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
      pango_layout_set_width (layout, (int) ((GUTTER - 8) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);
      /* "autograd · pid/tid" takes a second line where the lane has one. */
      if (lane->host && lane->height >= 2 * ROW_HEIGHT)
        {
          pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
          pango_layout_set_height (layout, -2);
        }
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 1);
      cairo_move_to (cr, 4, MAX (top, AXIS_HEIGHT));
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.15);
      cairo_rectangle (cr, 0, top + lane->height + LANE_GAP / 2, gtk_widget_get_width (GTK_WIDGET (self)), 1);
      cairo_fill (cr);
    }
}

/* ---- links between a launching row and its tasks ---- */

typedef struct {
  AfgStackChart *self;
  cairo_t       *cr;
  double         y;       /* the tasks' lane */
  double         row_x;   /* the row's middle, bottom */
  double         row_y;
  guint          thread;
  guint64        event;
  guint          n;
  gboolean       skip_comm;  /* the row's collectives have their line */
} LinkRun;

static gboolean
link_task (const AfgChartTask *task, gpointer data)
{
  LinkRun *run = data;

  if (task->launch_thread != run->thread || task->launch_event != run->event
      || (run->skip_comm && task->kind == AFG_TASK_KIND_COMMUNICATION))
    return TRUE;
  cairo_move_to (run->cr, run->row_x, run->row_y);
  cairo_line_to (run->cr, (x_of (run->self, task->start) + x_of (run->self, task->end)) / 2, run->y);
  return ++run->n < MAX_LINKS;
}

static gboolean
row_box (AfgStackChart *self, guint thread, guint64 event, double *x, double *y)
{
  guint64 n;
  const AfgChartRow *row = &afg_chart_store_get_rows (self->store, thread, &n)[event];
  const LaneGeom *lane = find_lane (self, -1, TRUE, thread);

  if (lane == NULL || row->depth == AFG_CHART_NONE)
    return FALSE;
  *x = (MAX (x_of (self, row->start), GUTTER) + MIN (x_of (self, row->end), gtk_widget_get_width (GTK_WIDGET (self))))
       / 2;
  *y = lane_top (self, lane) + (row->depth + 1) * ROW_HEIGHT - 1;
  return TRUE;
}

static void
draw_links (AfgStackChart *self, cairo_t *cr)
{
  LinkRun run = { self, cr, 0, 0, 0, 0, 0, 0, FALSE };

  if (self->hover.kind == HIT_ROW)
    {
      run.thread = self->hover.thread;
      run.event = self->hover.event;
    }
  else if (self->hover.kind == HIT_TASK && self->hover.task.launch_thread != AFG_CHART_NONE)
    {
      run.thread = self->hover.task.launch_thread;
      run.event = self->hover.task.launch_event;
    }
  else
    return;
  if (!row_box (self, run.thread, run.event, &run.row_x, &run.row_y))
    return;
  cairo_set_source_rgba (cr, 0, 0, 0, 0.7);
  cairo_set_line_width (cr, 1);
  /* A collective's tasks are one line, to its box: the collectives
   * first, then the other lanes without the communication tasks. */
  for (int collectives = 1; collectives >= 0; collectives--)
    {
      for (guint i = 0; i < self->lanes->len && run.n < MAX_LINKS; i++)
        {
          const LaneGeom *lane = &g_array_index (self->lanes, LaneGeom, i);

          if (lane->host || afg_chart_store_get_lane (self->store, lane->index)->collectives != collectives)
            continue;
          run.y = lane_top (self, lane);
          afg_chart_store_visit_tasks (self->store, lane->index, self->view_start, self->view_end, link_task, &run);
        }
      run.skip_comm = run.n > 0;
    }
  cairo_stroke (cr);
}

/* The host lanes between the axis and the device band, the band below. */
static void
clip_lanes (AfgStackChart *self, cairo_t *cr, gboolean host, double width, double height)
{
  cairo_save (cr);
  if (host)
    cairo_rectangle (cr, 0, AXIS_HEIGHT, width, MAX (0, band_top (self) - AXIS_HEIGHT));
  else
    cairo_rectangle (cr, 0, band_top (self), width, self->band_height);
  cairo_clip (cr);
}

static void
draw_band (AfgStackChart *self, cairo_t *cr, double width, double height, const GdkRGBA *fg)
{
  if (self->band_height == 0)
    return;
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.06);
  cairo_rectangle (cr, 0, band_top (self), width, self->band_height);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.4);
  cairo_rectangle (cr, 0, band_top (self), width, 1);
  cairo_fill (cr);
}

static const cairo_user_data_key_t canvas_pixels;

/* An image surface whose pixels are in huge pages: the chart's first
 * frame paints 8 MB of new memory, and on these VMs its 2,000 faults of
 * 4 kB pages cost more than the drawing. */
static cairo_surface_t *
new_canvas (int width, int height)
{
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  guchar *pixels;
  cairo_surface_t *surface;

  if (stride <= 0 || height <= 0)
    return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  pixels = afg_huge_alloc0 ((gsize) stride * (gsize) height);
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
  cairo_surface_set_user_data (surface, &canvas_pixels, pixels, g_free);
  return surface;
}

/* The surface to draw the next picture in, cleared: the one before
 * again, which saves a new 8 MB at each frame (cairo copies the pixels
 * the last frame's node still shows either way). */
static cairo_surface_t *
take_canvas (AfgStackChart *self, int width, int height)
{
  cairo_surface_t **canvas = &self->canvas;
  cairo_t *cr;

  if (*canvas != NULL && cairo_image_surface_get_width (*canvas) == width
      && cairo_image_surface_get_height (*canvas) == height)
    {
      cr = cairo_create (*canvas);
      cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
      cairo_paint (cr);
      cairo_destroy (cr);
      return *canvas;
    }
  g_clear_pointer (canvas, cairo_surface_destroy);
  *canvas = new_canvas (width, height);
  return *canvas;
}

/* The picture is drawn straight into pixels: recorded cairo commands
 * would be replayed one by one when rendered, and a frame holds
 * thousands of boxes. */
static cairo_surface_t *
draw_picture (AfgStackChart *self, double width, double height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int scale = gtk_widget_get_scale_factor (widget);
  GdkRGBA fg, bg = { 0.98, 0.98, 0.98, 1 };
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 t0 = g_get_monotonic_time ();
  gint64 cpu0 = thread_cpu_us ();

  self->n_drawn = 0;
  self->n_dimmed = 0;
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  if (fg.red + fg.green + fg.blue > 1.5)
    bg = (GdkRGBA) { 0.14, 0.14, 0.14, 1 };
  self->dim_to = (guint32) (bg.red * 255 + 0.5) << 16 | (guint32) (bg.green * 255 + 0.5) << 8
                 | (guint32) (bg.blue * 255 + 0.5);
  surface = take_canvas (self, (int) (width * scale), (int) (height * scale));
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  draw_band (self, cr, width, height, &fg);
  draw_idle (self, cr, height);
  for (int host = 0; host < 2; host++)
    {
      clip_lanes (self, cr, host, width, height);
      for (guint i = 0; i < self->lanes->len; i++)
        if (g_array_index (self->lanes, LaneGeom, i).host == host)
          draw_lane (self, cr, &g_array_index (self->lanes, LaneGeom, i), height);
      afg_box_batch_flush (self->batch, cr, draw_label, self);
      cairo_restore (cr);
    }
  draw_axis (self, cr, &fg, &bg);
  draw_steps (self, cr, height, &fg);
  draw_gutter (self, cr, &fg, &bg, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  self->draw_us = g_get_monotonic_time () - t0;
  self->draw_cpu = thread_cpu_us () - cpu0;
  return surface;
}

/* The picture, drawn again only when what it shows changed; the hover's
 * links over it, which change as the pointer moves. The picture goes in
 * as one cairo node painting it rather than as a texture: GTK 4.8's
 * cairo renderer converts a texture's every pixel through floats at
 * every frame, and paints a cairo node's image with one blit. */
static void
afg_stack_chart_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  AfgStackChart *self = AFG_STACK_CHART (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  cairo_t *cr;

  if (self->store == NULL || width <= GUTTER || height <= AXIS_HEIGHT)
    {
      self->n_drawn = 0;
      return;
    }
  if (self->picture != NULL && (cairo_image_surface_get_width (self->picture) != (int) (width * scale)
                                || cairo_image_surface_get_height (self->picture) != (int) (height * scale)))
    self->picture = NULL;
  if (self->picture == NULL)
    self->picture = draw_picture (self, width, height);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, self->picture, 0, 0);
  cairo_paint (cr);
  if (self->hover.kind != HIT_NONE)
    {
      cairo_rectangle (cr, GUTTER, AXIS_HEIGHT, width - GUTTER, height - AXIS_HEIGHT);
      cairo_clip (cr);
      draw_links (self, cr);
    }
  cairo_destroy (cr);
}

/* ---- hit-testing ---- */

/* The box at (@x, @y): within a pixel either side, the one drawn on top. */
static Hit
hit_at (AfgStackChart *self, double x, double y)
{
  Hit hit = { HIT_NONE };
  const LaneGeom *lane;
  gint64 at = time_of (self, x);
  gint64 slack = ceil_ns (ns_per_px (self));

  if (self->store == NULL || x < GUTTER || y < AXIS_HEIGHT || (lane = find_lane (self, y, FALSE, 0)) == NULL)
    return hit;
  hit.lane = lane->index;
  if (lane->host)
    {
      guint depth = (guint) ((y - lane_top (self, lane)) / ROW_HEIGHT);
      guint64 n;

      hit.thread = lane->index;
      if (afg_chart_store_row_at (self->store, lane->index, depth, at, slack, &hit.event))
        {
          const AfgChartRow *row = &afg_chart_store_get_rows (self->store, lane->index, &n)[hit.event];

          hit.kind = HIT_ROW;
          hit.task.start = row->start;
          hit.task.end = row->end;
        }
    }
  else if (afg_chart_store_task_at (self->store, lane->index, at, slack, &hit.task))
    hit.kind = HIT_TASK;
  return hit;
}

static guint32
hit_name (AfgStackChart *self, const Hit *hit)
{
  AfgDocument *document = afg_chart_store_get_document (self->store);
  guint32 name;

  if (hit->kind == HIT_TASK)
    return hit->task.name;
  name = afg_event_store_get_thread (afg_document_get_events (document), hit->thread)->events[hit->event].name;
  return self->merge ? afg_document_get_merged_name (document, name) : name;
}

static char *
launch_words (AfgStackChart *self, const AfgChartTask *task)
{
  Hit row = { HIT_ROW, 0, task->launch_thread, task->launch_event };

  if (task->launch_thread == AFG_CHART_NONE)
    return g_strdup (_("none"));
  return g_strdup (name_text (self, hit_name (self, &row)));
}

static char *
hit_tooltip (AfgStackChart *self, const Hit *hit)
{
  g_autofree char *start = afg_format_duration (hit->task.start - self->scope_start);
  g_autofree char *duration = afg_format_duration (hit->task.end - hit->task.start);
  g_autofree char *launch = NULL;
  const char *name = name_text (self, hit_name (self, hit));

  if (hit->kind == HIT_ROW)
    /* Translators: a host frame's tooltip in the stack chart */
    return g_strdup_printf (_("%s\nstart %s · duration %s"), name, start, duration);
  launch = launch_words (self, &hit->task);
  /* Translators: a device task's tooltip in the stack chart */
  return g_strdup_printf (_("%s\nstart %s · duration %s · %s\nlaunched by: %s"), name, start, duration,
                          afg_task_kind_to_string (hit->task.kind), launch);
}

static gboolean
afg_stack_chart_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  AfgStackChart *self = AFG_STACK_CHART (widget);
  Hit hit = hit_at (self, x, y);
  g_autofree char *text = NULL;

  if (hit.kind == HIT_NONE)
    return FALSE;
  text = hit_tooltip (self, &hit);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static gboolean
same_hit (const Hit *a, const Hit *b)
{
  return a->kind == b->kind && a->lane == b->lane && a->event == b->event && a->task.start == b->task.start
         && a->task.end == b->task.end && a->thread == b->thread;
}

static void
set_hover (AfgStackChart *self, Hit hit)
{
  if (same_hit (&hit, &self->hover))
    return;
  self->hover = hit;
  /* Only the links change: the picture is kept. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[HOVER_CHANGED], 0);
}

/* ---- input ---- */

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, AfgStackChart *self)
{
  self->pointer_x = x;
  set_hover (self, hit_at (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion, AfgStackChart *self)
{
  set_hover (self, (Hit) { HIT_NONE });
}

static void
select_hit (AfgStackChart *self, const Hit *hit)
{
  if (hit->kind == HIT_ROW)
    afg_stack_chart_set_selected (self, hit->thread, hit->event);
  else if (hit->kind == HIT_TASK && hit->task.launch_thread != AFG_CHART_NONE)
    afg_stack_chart_set_selected (self, hit->task.launch_thread, hit->task.launch_event);
}

static void
on_pressed (GtkGestureClick *click, int n_press, double x, double y, AfgStackChart *self)
{
  Hit hit = hit_at (self, x, y);

  if (n_press == 2 && hit.kind != HIT_NONE)
    {
      gint64 margin = (hit.task.end - hit.task.start) / 20;

      afg_stack_chart_set_view (self, hit.task.start - margin, hit.task.end + margin);
    }
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, AfgStackChart *self)
{
  self->drag_start = self->view_start;
  gtk_widget_grab_focus (GTK_WIDGET (self));
}

/* A press released where it was is a click: it picks the box there. The
 * drag sees every press, where a click gesture may drop one that comes
 * soon after another elsewhere. */
static void
on_drag_end (GtkGestureDrag *drag, double dx, double dy, AfgStackChart *self)
{
  double x, y;
  Hit hit;

  if (dx * dx + dy * dy > 9 || !gtk_gesture_drag_get_start_point (drag, &x, &y))
    return;
  hit = hit_at (self, x, y);
  select_hit (self, &hit);
}

static void
on_drag_update (GtkGestureDrag *drag, double dx, double dy, AfgStackChart *self)
{
  gint64 len = self->view_end - self->view_start;
  gint64 start = self->drag_start - (gint64) (dx * ns_per_px (self));

  if (self->store != NULL && (dx >= 1 || dx <= -1))
    afg_stack_chart_set_view (self, start, start + len);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, AfgStackChart *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));

  if (self->store == NULL)
    return FALSE;
  if ((state & GDK_SHIFT_MASK) && self->vadjustment != NULL)
    {
      gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy * ROW_HEIGHT * 3);
      return TRUE;
    }
  if (dx != 0)
    afg_stack_chart_pan (self, dx * 0.1);
  if (dy != 0)
    afg_stack_chart_zoom (self, zoom_factor (dy), (self->pointer_x - GUTTER) / plot_width (self));
  return TRUE;
}

static gboolean
on_key_pressed (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state, AfgStackChart *self)
{
  switch (keyval)
    {
    case GDK_KEY_Home:
    case GDK_KEY_Escape:
      if (self->store == NULL || (self->view_start == self->scope_start && self->view_end == self->scope_end))
        return FALSE;
      afg_stack_chart_reset_view (self);
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      afg_stack_chart_zoom (self, 1.5, 0.5);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      afg_stack_chart_zoom (self, 1 / 1.5, 0.5);
      return TRUE;
    case GDK_KEY_Left:
      afg_stack_chart_pan (self, -0.2);
      return TRUE;
    case GDK_KEY_Right:
      afg_stack_chart_pan (self, 0.2);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ---- frame timing (the benchmarks' figures) ---- */

/* What one frame takes after the view changed, from the frame clock's
 * before-paint phase to the end of layout, drawing and rendering. */
static void
on_paint (GdkFrameClock *clock, AfgStackChart *self)
{
  self->paint_start = self->changed ? g_get_monotonic_time () : 0;
  self->paint_cpu = thread_cpu_us ();
  self->changed = FALSE;
}

static void
on_after_paint (GdkFrameClock *clock, AfgStackChart *self)
{
  if (self->paint_start == 0)
    return;
  g_debug ("chart frame %.1f ms, %u boxes drawn in %.1f ms; CPU %.1f ms, drawing %.1f ms",
           (g_get_monotonic_time () - self->paint_start) / 1000.0, self->n_drawn, self->draw_us / 1000.0,
           (thread_cpu_us () - self->paint_cpu) / 1000.0, self->draw_cpu / 1000.0);
  self->paint_start = 0;
}

static void
afg_stack_chart_realize (GtkWidget *widget)
{
  AfgStackChart *self = AFG_STACK_CHART (widget);
  GdkFrameClock *clock;

  GTK_WIDGET_CLASS (afg_stack_chart_parent_class)->realize (widget);
  clock = gtk_widget_get_frame_clock (widget);
  self->paint_handlers[0] = g_signal_connect (clock, "before-paint", G_CALLBACK (on_paint), self);
  self->paint_handlers[1] = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), self);
}

/* Shown again (the layout switched back), it stays realized: its first
 * frame is timed as a change too. */
static void
afg_stack_chart_map (GtkWidget *widget)
{
  AFG_STACK_CHART (widget)->changed = TRUE;
  GTK_WIDGET_CLASS (afg_stack_chart_parent_class)->map (widget);
}

static void
afg_stack_chart_unrealize (GtkWidget *widget)
{
  AfgStackChart *self = AFG_STACK_CHART (widget);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  for (guint i = 0; i < G_N_ELEMENTS (self->paint_handlers); i++)
    g_clear_signal_handler (&self->paint_handlers[i], clock);
  GTK_WIDGET_CLASS (afg_stack_chart_parent_class)->unrealize (widget);
}

/* ---- GObject ---- */

static void
afg_stack_chart_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  AfgStackChart *self = AFG_STACK_CHART (widget);

  self->width = width;
  sync_adjustments (self);
  self->picture = NULL;
}

static void
afg_stack_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                         int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? (int) GUTTER + 100 : (int) AXIS_HEIGHT + 40;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 300;
}

static void
afg_stack_chart_dispose (GObject *object)
{
  AfgStackChart *self = AFG_STACK_CHART (object);

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  G_OBJECT_CLASS (afg_stack_chart_parent_class)->dispose (object);
}

static void
afg_stack_chart_finalize (GObject *object)
{
  AfgStackChart *self = AFG_STACK_CHART (object);

  g_clear_pointer (&self->store, afg_chart_store_unref);
  g_clear_pointer (&self->instances, g_array_unref);
  g_clear_pointer (&self->canvas, cairo_surface_destroy);
  g_array_unref (self->lanes);
  g_hash_table_unref (self->layouts);
  g_array_unref (self->colors);
  g_free (self->search);
  g_array_unref (self->search_hits);
  afg_box_batch_free (self->batch);
  G_OBJECT_CLASS (afg_stack_chart_parent_class)->finalize (object);
}

static void
afg_stack_chart_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  AfgStackChart *self = AFG_STACK_CHART (object);

  switch (prop_id)
    {
    default:
      if (!afg_scrollable_get_property (prop_id - PROP_HADJUSTMENT, value, self->hadjustment,
                                        self->vadjustment, self->hscroll_policy, self->vscroll_policy))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
afg_stack_chart_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  AfgStackChart *self = AFG_STACK_CHART (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value), G_CALLBACK (on_hadjustment_changed));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value), G_CALLBACK (on_vadjustment_changed));
      break;
    default:
      if (!afg_scrollable_set_policy (prop_id - PROP_HADJUSTMENT, value, &self->hscroll_policy,
                                      &self->vscroll_policy))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
afg_stack_chart_get_border (GtkScrollable *scrollable, GtkBorder *border)
{
  *border = (GtkBorder) { 0, 0, (gint16) AXIS_HEIGHT, 0 };
  return TRUE;
}

static void
afg_stack_chart_scrollable_init (GtkScrollableInterface *iface)
{
  iface->get_border = afg_stack_chart_get_border;
}

static void
afg_stack_chart_class_init (AfgStackChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = afg_stack_chart_dispose;
  object_class->finalize = afg_stack_chart_finalize;
  object_class->get_property = afg_stack_chart_get_property;
  object_class->set_property = afg_stack_chart_set_property;
  widget_class->snapshot = afg_stack_chart_snapshot;
  widget_class->measure = afg_stack_chart_measure;
  widget_class->size_allocate = afg_stack_chart_size_allocate;
  widget_class->query_tooltip = afg_stack_chart_query_tooltip;
  widget_class->realize = afg_stack_chart_realize;
  widget_class->map = afg_stack_chart_map;
  widget_class->unrealize = afg_stack_chart_unrealize;

  afg_scrollable_override_properties (object_class, PROP_HADJUSTMENT);

  /* The visible range changed (afg_stack_chart_get_view). */
  signals[VIEW_CHANGED] = g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A host row was picked (afg_stack_chart_get_selected). */
  signals[ROW_SELECTED] = g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[HOVER_CHANGED] = g_signal_new ("hover-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "afgstackchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
add_controllers (AfgStackChart *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);

  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  afg_widget_add_drag (GTK_WIDGET (self), G_CALLBACK (on_drag_begin), G_CALLBACK (on_drag_update),
                       G_CALLBACK (on_drag_end), self);
  afg_widget_add_motion (GTK_WIDGET (self), G_CALLBACK (on_motion), G_CALLBACK (on_leave), self);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  afg_widget_add_key (GTK_WIDGET (self), G_CALLBACK (on_key_pressed), self);
}

static void
afg_stack_chart_init (AfgStackChart *self)
{
  self->lanes = g_array_new (FALSE, FALSE, sizeof (LaneGeom));
  self->layouts = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->colors = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->search_hits = g_array_new (FALSE, FALSE, sizeof (gint8));
  self->batch = afg_box_batch_new ();
  self->instance = -1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Stack chart"), -1);
  add_controllers (self);
}

/* ---- public API ---- */

GtkWidget *
afg_stack_chart_new (void)
{
  return g_object_new (AFG_TYPE_STACK_CHART, NULL);
}

void
afg_stack_chart_set_store (AfgStackChart *self, AfgChartStore *store)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  g_clear_pointer (&self->store, afg_chart_store_unref);
  g_clear_pointer (&self->instances, g_array_unref);
  g_hash_table_remove_all (self->layouts);
  g_array_set_size (self->colors, 0);
  /* By name: the names are the new document's. */
  g_array_set_size (self->search_hits, 0);
  self->store = store;
  self->has_selected = FALSE;
  self->hover = (Hit) { HIT_NONE };
  layout_lanes (self);
  afg_stack_chart_reset_view (self);
}

AfgChartStore *
afg_stack_chart_get_store (AfgStackChart *self)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), NULL);

  return self->store;
}

void
afg_stack_chart_set_scope (AfgStackChart *self, gint64 start, gint64 end)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  self->scope_start = start;
  self->scope_end = MAX (end, start + MIN_VIEW_NS);
  afg_stack_chart_reset_view (self);
}

void
afg_stack_chart_get_scope (AfgStackChart *self, gint64 *start, gint64 *end)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  *start = self->scope_start;
  *end = self->scope_end;
}

gboolean
afg_stack_chart_get_view (AfgStackChart *self, gint64 *start, gint64 *end)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), FALSE);

  *start = self->view_start;
  *end = self->view_end;
  return self->store != NULL && self->view_end > self->view_start;
}

/* Kept inside the scope, at least MIN_VIEW_NS long. */
void
afg_stack_chart_set_view (AfgStackChart *self, gint64 start, gint64 end)
{
  gint64 len;

  g_return_if_fail (AFG_IS_STACK_CHART (self));

  len = CLAMP (afg_sat_sub (end, start), MIN_VIEW_NS, afg_sat_sub (self->scope_end, self->scope_start));
  start = CLAMP (start, self->scope_start, self->scope_end - len);
  if (start == self->view_start && start + len == self->view_end)
    return;
  self->view_start = start;
  self->view_end = start + len;
  self->changed = TRUE;
  sync_adjustments (self);
  invalidate (self);
  g_signal_emit (self, signals[VIEW_CHANGED], 0);
}

/* In offsets from the view's start: a double holds absolute timestamps
 * only to 256 ns. */
void
afg_stack_chart_zoom (AfgStackChart *self, double factor, double at)
{
  double len, pivot;
  gint64 start;

  g_return_if_fail (AFG_IS_STACK_CHART (self));
  g_return_if_fail (factor > 0);

  if (self->store == NULL)
    return;
  len = self->view_end - self->view_start;
  pivot = CLAMP (at, 0, 1) * len;
  start = self->view_start + (gint64) (pivot - pivot / factor);
  afg_stack_chart_set_view (self, start, start + (gint64) (len / factor));
}

void
afg_stack_chart_pan (AfgStackChart *self, double fraction)
{
  gint64 shift;

  g_return_if_fail (AFG_IS_STACK_CHART (self));

  shift = (gint64) (fraction * (self->view_end - self->view_start));
  afg_stack_chart_set_view (self, self->view_start + shift, self->view_end + shift);
}

void
afg_stack_chart_reset_view (AfgStackChart *self)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  afg_stack_chart_set_view (self, self->scope_start, self->scope_end);
  sync_adjustments (self);
  invalidate (self);
}

gboolean
afg_stack_chart_get_selected (AfgStackChart *self, guint *thread, guint64 *event)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), FALSE);

  *thread = self->selected_thread;
  *event = self->selected_event;
  return self->has_selected;
}

void
afg_stack_chart_set_selected (AfgStackChart *self, guint thread, guint64 event)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  self->has_selected = self->store != NULL && thread < afg_chart_store_get_n_threads (self->store);
  self->selected_thread = thread;
  self->selected_event = event;
  invalidate (self);
  g_signal_emit (self, signals[ROW_SELECTED], 0);
}

void
afg_stack_chart_set_instances (AfgStackChart *self, guint thread, GArray *events)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  g_clear_pointer (&self->instances, g_array_unref);
  self->instances = events;
  self->instance_thread = thread;
  self->instance = -1;
  invalidate (self);
}

/* The view keeps its length around the row, unless the row is longer:
 * then it shows the row whole; the lanes scroll to its depth. */
static void
show_row (AfgStackChart *self, guint thread, guint64 event)
{
  guint64 n;
  const AfgChartRow *row = &afg_chart_store_get_rows (self->store, thread, &n)[event];
  const LaneGeom *lane = find_lane (self, -1, TRUE, thread);
  gint64 len = self->view_end - self->view_start;
  gint64 row_len = afg_sat_sub (row->end, row->start);
  gint64 middle = row->start + row_len / 2;

  /* The zoom stays unless the row is longer than the view, which then
   * shows it whole, with a margin. */
  if (row_len > len)
    len = afg_sat_add (row_len, row_len / 10);
  afg_stack_chart_set_view (self, middle - len / 2, middle - len / 2 + len);
  if (lane != NULL && self->vadjustment != NULL)
    gtk_adjustment_clamp_page (self->vadjustment, lane->y + row->depth * ROW_HEIGHT,
                               lane->y + (row->depth + 1) * ROW_HEIGHT);
}

gboolean
afg_stack_chart_step_instance (AfgStackChart *self, gboolean forward)
{
  guint n;

  g_return_val_if_fail (AFG_IS_STACK_CHART (self), FALSE);

  if (self->store == NULL || self->instances == NULL || self->instances->len == 0)
    return FALSE;
  n = self->instances->len;
  if (self->instance < 0)
    self->instance = forward ? 0 : (int) n - 1;
  else
    self->instance = (int) ((self->instance + (forward ? 1 : n - 1)) % n);
  show_row (self, self->instance_thread, g_array_index (self->instances, guint64, self->instance));
  invalidate (self);
  return TRUE;
}

char *
afg_stack_chart_describe_lanes (AfgStackChart *self)
{
  GString *out;

  g_return_val_if_fail (AFG_IS_STACK_CHART (self), NULL);

  if (self->store == NULL)
    return NULL;
  out = g_string_new (NULL);
  for (guint i = 0; i < self->lanes->len; i++)
    {
      g_autofree char *label = lane_label (self, &g_array_index (self->lanes, LaneGeom, i));

      g_string_append_printf (out, "%s%s", i > 0 ? "|" : "", label);
    }
  return g_string_free (out, FALSE);
}

char *
afg_stack_chart_describe_instances (AfgStackChart *self)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), NULL);

  if (self->instances == NULL)
    return NULL;
  return g_strdup_printf ("%d/%u", self->instance + 1, self->instances->len);
}

const char *
afg_stack_chart_get_hover_name (AfgStackChart *self)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), NULL);

  return self->hover.kind == HIT_NONE ? NULL : name_text (self, hit_name (self, &self->hover));
}

guint
afg_stack_chart_get_n_drawn (AfgStackChart *self)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), 0);

  return self->n_drawn;
}

void
afg_stack_chart_set_merge (AfgStackChart *self, gboolean merge)
{
  g_return_if_fail (AFG_IS_STACK_CHART (self));

  if (self->merge == merge)
    return;
  self->merge = merge;
  g_hash_table_remove_all (self->layouts);
  g_array_set_size (self->colors, 0);
  invalidate (self);
}

/* @text's boxes lit, the others dimmed, as a search in the flame graph
 * does (afg_flame_search_name_has); NULL or empty lights them all. */
void
afg_stack_chart_set_search (AfgStackChart *self, const char *text)
{
  g_autofree char *folded = text != NULL && text[0] != '\0' ? g_utf8_strdown (text, -1) : NULL;

  g_return_if_fail (AFG_IS_STACK_CHART (self));

  if (g_strcmp0 (folded, self->search) == 0)
    return;
  g_free (self->search);
  self->search = g_steal_pointer (&folded);
  g_array_set_size (self->search_hits, 0);
  invalidate (self);
}

guint
afg_stack_chart_get_n_dimmed (AfgStackChart *self)
{
  g_return_val_if_fail (AFG_IS_STACK_CHART (self), 0);

  return self->n_dimmed;
}
