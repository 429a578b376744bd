/* SPDX-License-Identifier: MIT */
/* A job folder's ranks.json and index.html. */
#include "config.h"

#include <glib/gi18n.h>

#include <stdlib.h>
#include <string.h>

#include "afg-format.h"
#include "afg-math.h"
#include "afg-job-collectives.h"
#include "afg-json-writer.h"
#include "afg-ranks-writer.h"
#include "afg-summary-file.h"

/* The device timeline's split, null without one. */
static void
put_device (GString *out, gboolean has_device, const AfgDeviceSplit *split)
{
  if (!has_device)
    {
      g_string_append (out, ",\"device\":null");
      return;
    }
  g_string_append (out, ",\"device\":");
  afg_json_append_split (out, split);
}

static void
put_rank (GString *out, const AfgRankSummary *rank, const AfgJobCollectives *collectives, guint i)
{
  g_string_append (out, i > 0 ? ",{\"rank\":" : "{\"rank\":");
  afg_json_append_int (out, rank->rank);
  g_string_append (out, ",\"file\":");
  afg_json_append_text (out, rank->file);
  afg_summary_append_figures (out, rank, put_device);
  afg_json_append_member_int (out, "comm_wait_ns", collectives->wait_ns[i]);
  afg_json_append_member_int (out, "last_arrivals", collectives->last_arrivals[i]);
  g_string_append_printf (out, ",\"is_straggler\":%s", collectives->straggler == (int) i ? "true" : "false");
  afg_summary_append_steps (out, rank, put_device);
  g_string_append (out, ",\"error\":");
  if (rank->error != NULL)
    afg_json_append_text (out, rank->error);
  else
    g_string_append (out, "null");
  g_string_append_c (out, '}');
}

static void
put_job (GString *out, AfgRankSummary * const *ranks, const AfgJobCollectives *collectives)
{
  g_string_append (out, ",\"collectives\":{\"matched\":");
  afg_json_append_int (out, collectives->matched->len);
  afg_json_append_member_int (out, "qualifying", collectives->n_qualifying);
  g_string_append (out, "},\"straggler\":");
  if (collectives->straggler >= 0)
    afg_json_append_int (out, ranks[collectives->straggler]->rank);
  else
    g_string_append (out, "null");
}

char *
afg_ranks_json_write (AfgRankSummary * const *ranks, guint n, const AfgJobFigures *figures)
{
  GString *out = g_string_new ("{\"format\":\"ascend-flamegraph-ranks\",\"version\":2");

  put_job (out, ranks, figures->collectives);
  g_string_append (out, ",\"ranks\":[");
  for (guint i = 0; i < n; i++)
    put_rank (out, ranks[i], figures->collectives, i);
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

/* Rows of the collectives table: the largest spreads. */
#define AFG_RANKS_MAX_COLLECTIVES 50

static const char page_head[] =
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
  "<title>%s</title>\n<style>\n"
  "body{font:14px system-ui,sans-serif;margin:24px;color:#222}\n"
  "table{border-collapse:collapse;margin-bottom:24px}\n"
  "th,td{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right;vertical-align:middle}\n"
  "td{white-space:nowrap}\n"
  "th:first-child,td:first-child,td.name,#ranks th:last-child{text-align:left}\n"
  "td.name{max-width:40em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\n"
  ".bars{display:flex;align-items:flex-end;gap:1px;height:24px}\n"
  ".bars span{display:inline-block;width:6px;background:#4a7dbf}\n"
  "tr.straggler{background:#fdecea}\ntr.straggler .bars span{background:#c0392b}\n"
  ".device{display:flex;width:160px;height:14px;background:#eee}\n"
  ".device .compute{background:#33d17a}.device .comm{background:#9141ac}"
  ".device .other{background:#9a9996}.device .free{background:#e6e6e6}\n"
  "#collectives tr.qualifies td:last-child{font-weight:600}\n"
  ".status{text-align:left;font-weight:600;white-space:normal}\n.error{color:#a00;text-align:left;white-space:normal}\n"
  ".scroll{overflow-x:auto}\n"
  "</style>\n</head>\n<body>\n";

static void
append_escaped (GString *out, const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (out, escaped);
}

static void
append_duration (GString *out, gint64 ns)
{
  g_autofree char *text = afg_format_duration (ns);

  g_string_append (out, text);
}

static void
append_duration_cell (GString *out, gint64 ns)
{
  g_string_append (out, "<td>");
  append_duration (out, ns);
  g_string_append (out, "</td>");
}

static gint64
longest_step (AfgRankSummary * const *ranks, guint n)
{
  gint64 longest = 1;

  for (guint i = 0; i < n; i++)
    for (guint s = 0; s < ranks[i]->steps->len; s++)
      longest = MAX (longest, g_array_index (ranks[i]->steps, AfgRankStep, s).host_ns);
  return longest;
}

/* A step's bar height, 2-100 % (@ns ≤ @longest). A summary read from a
 * file may hold any 64-bit time: one that 98 times would overflow is
 * scaled in double. */
static int
bar_percent (gint64 ns, gint64 longest)
{
  ns = MAX (ns, 0);
  if (ns > G_MAXINT64 / 98)
    return (int) (2 + 98.0 * ((double) ns / (double) longest));
  return (int) (2 + 98 * ns / longest);
}

static void
append_bars (GString *out, const AfgRankSummary *rank, gint64 longest)
{
  g_string_append (out, "<td><div class=\"bars\">");
  for (guint s = 0; s < rank->steps->len; s++)
    {
      const AfgRankStep *step = &g_array_index (rank->steps, AfgRankStep, s);
      g_autofree char *shown = afg_format_duration (step->host_ns);

      g_string_append_printf (out, "<span style=\"height:%d%%\" title=\"step %" G_GINT64_FORMAT
                              ": %s\"></span>", bar_percent (step->host_ns, longest),
                              step->id, shown);
    }
  g_string_append (out, "</div></td>");
}

static void
append_device_bar (GString *out, const AfgRankSummary *rank)
{
  static const char * const classes[] = { "compute", "comm", "other", "free" };
  const AfgDeviceSplit *d = &rank->device;
  gint64 parts[] = { d->compute_ns, d->comm_ns, d->other_ns, d->free_ns };
  gint64 window = afg_sat_add (afg_sat_add (parts[0], parts[1]), afg_sat_add (parts[2], parts[3]));
  g_autofree char *title = NULL;

  if (!rank->has_device || window <= 0)
    {
      g_string_append (out, "<td>–</td>");
      return;
    }
  title = afg_device_split_describe (d, window, TRUE);
  g_string_append (out, "<td><div class=\"device\" title=\"");
  append_escaped (out, title);
  g_string_append (out, "\">");
  for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
    if (parts[k] > 0)
      {
        /* In hundredths of a percent, by hand: printf's %f follows the locale. */
        int basis = (int) (10000.0 * parts[k] / window);

        g_string_append_printf (out, "<span class=\"%s\" style=\"width:%d.%02d%%\"></span>", classes[k],
                                basis / 100, basis % 100);
      }
  g_string_append (out, "</div></td>");
}

static void
append_status (GString *out, AfgRankSummary * const *ranks, const AfgJobCollectives *collectives, guint i)
{
  g_autofree char *why = NULL;

  g_string_append (out, "<td>");
  append_duration (out, collectives->wait_ns[i]);
  g_string_append_printf (out, "</td><td>%u / %u</td><td class=\"status\">", collectives->last_arrivals[i],
                          collectives->took_part[i]);
  if (collectives->straggler == (int) i)
    {
      why = afg_job_collectives_explain (collectives, ranks);
      g_string_append (out, _("straggler: "));
      append_escaped (out, why);
    }
  g_string_append (out, "</td>");
}

static void
append_rank_row (GString *out, AfgRankSummary * const *ranks, const AfgJobCollectives *collectives, guint i,
                 gint64 longest)
{
  const AfgRankSummary *rank = ranks[i];

  g_string_append_printf (out, "<tr%s><td>", collectives->straggler == (int) i ? " class=\"straggler\"" : "");
  if (rank->error == NULL)
    g_string_append_printf (out, "<a href=\"rank%d/flamegraph.html\">rank %d</a></td><td>",
                            rank->rank, rank->rank);
  else
    g_string_append_printf (out, "rank %d</td><td class=\"error\" colspan=\"7\">", rank->rank);
  if (rank->error != NULL)
    {
      append_escaped (out, rank->error);
      g_string_append (out, "</td></tr>\n");
      return;
    }
  append_duration (out, rank->host_ns);
  g_string_append (out, "</td>");
  append_device_bar (out, rank);
  append_bars (out, rank, longest);
  append_duration_cell (out, rank->comm_ns);
  append_status (out, ranks, collectives, i);
  g_string_append (out, "</tr>\n");
}

static void
append_ranks_table (GString *out, AfgRankSummary * const *ranks, guint n,
                    const AfgJobFigures *figures)
{
  gint64 longest = longest_step (ranks, n);

  g_string_append_printf (out, "<table id=\"ranks\">\n<tr><th>%s</th><th>%s</th><th>%s</th><th>%s</th>"
                          "<th>%s</th><th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Rank"), _("Host time"), _("Device (compute, communication, other, free)"),
                          _("Steps"), _("Collectives"), _("Waited"), _("Came last"), _("Status"));
  for (guint i = 0; i < n; i++)
    append_rank_row (out, ranks, figures->collectives, i, longest);
  g_string_append (out, "</table>\n");
}

/* The rank the window's "Explain the Straggler" compares the straggler
 * with, and the command that shows that diff (paths from the job folder). */
static void
append_reference (GString *out, AfgRankSummary * const *ranks, guint n, int straggler,
                  const AfgSummaryOptions *options)
{
  int reference = afg_job_reference_rank (ranks, n, straggler);
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *command = NULL;

  if (reference < 0)
    return;
  g_string_append (out, " ");
  g_string_append_printf (out, _("Compare it with rank %d, nearest the median compute time (from the job's folder):"),
                          ranks[reference]->rank);
  a = g_shell_quote (ranks[reference]->file);
  b = g_shell_quote (ranks[straggler]->file);
  command = g_strdup_printf ("ascend-flamegraph --diff %s %s --export --weight compute --merge-addresses", a, b);
  /* The steps the ranks were compared in: the reference is picked there. */
  if (options != NULL && options->has_steps)
    {
      g_autofree char *steps = options->first_step == options->last_step
        ? g_strdup_printf (" --steps %" G_GINT64_FORMAT, options->first_step)
        : g_strdup_printf (" --steps %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT, options->first_step, options->last_step);
      g_autofree char *whole = g_strconcat (command, steps, NULL);

      g_free (command);
      command = g_steal_pointer (&whole);
    }
  g_string_append (out, " <code id=\"explain\">");
  append_escaped (out, command);
  g_string_append (out, "</code>");
}

/* The verdict in words above the table. */
static void
append_verdict (GString *out, AfgRankSummary * const *ranks, guint n, const AfgJobCollectives *collectives,
                const AfgSummaryOptions *options)
{
  g_autofree char *verdict = afg_job_collectives_verdict (collectives, ranks);

  g_string_append (out, "<p id=\"verdict\">");
  append_escaped (out, verdict);
  /* A straggler that failed (it lacks the steps asked for: its rows
   * still count) has no tree to compare in those steps. */
  if (collectives->straggler >= 0 && ranks[collectives->straggler]->error == NULL)
    append_reference (out, ranks, n, collectives->straggler, options);
  g_string_append (out, "</p>\n");
}

static gint64
spread (const AfgMatchedCollective *m)
{
  return m->max_ns - m->min_ns;
}

static int
compare_spreads_desc (gconstpointer a, gconstpointer b)
{
  const AfgMatchedCollective *x = *(AfgMatchedCollective * const *) a, *y = *(AfgMatchedCollective * const *) b;
  int by_group;

  if (spread (x) != spread (y))
    return spread (x) < spread (y) ? 1 : -1;
  by_group = strcmp (x->group, y->group);
  return by_group != 0 ? by_group : strcmp (x->op, y->op);
}

static void
append_last (GString *out, AfgRankSummary * const *ranks, guint n, const AfgMatchedCollective *m)
{
  gboolean first = TRUE;

  g_string_append (out, "<td class=\"name\">");
  for (guint i = 0; m->qualifies && i < n; i++)
    if (m->ns[i] == m->min_ns)
      {
        g_string_append_printf (out, "%srank %d", first ? "" : ", ", ranks[i]->rank);
        first = FALSE;
      }
  if (first)
    g_string_append (out, "–");
  g_string_append (out, "</td>");
}

static void
append_collective_row (GString *out, AfgRankSummary * const *ranks, guint n, const AfgMatchedCollective *m)
{
  g_autofree char *name = g_strdup_printf ("%s (%s)", m->op, m->group);

  g_string_append (out, m->qualifies ? "<tr class=\"qualifies\"><td class=\"name\" title=\"" : "<tr><td class=\"name\" title=\"");
  append_escaped (out, name);
  g_string_append (out, "\">");
  append_escaped (out, name);
  g_string_append (out, "</td>");
  for (guint i = 0; i < n; i++)
    {
      if (ranks[i]->error != NULL)
        continue;
      g_string_append (out, "<td>");
      if (m->ns[i] >= 0)
        append_duration (out, m->ns[i]);
      else
        g_string_append (out, "–");
      g_string_append (out, "</td>");
    }
  append_duration_cell (out, spread (m));
  append_last (out, ranks, n, m);
  g_string_append (out, "</tr>\n");
}

/* The matched collectives with the largest spread first. */
static void
append_collectives_table (GString *out, AfgRankSummary * const *ranks, guint n,
                          const AfgJobCollectives *collectives)
{
  guint total = collectives->matched->len, shown = MIN (total, AFG_RANKS_MAX_COLLECTIVES);
  g_autofree const AfgMatchedCollective **sorted = g_new (const AfgMatchedCollective *, MAX (total, 1));

  if (total == 0)
    return;
  for (guint i = 0; i < total; i++)
    sorted[i] = &g_array_index (collectives->matched, AfgMatchedCollective, i);
  qsort (sorted, total, sizeof (*sorted), compare_spreads_desc);
  g_string_append_printf (out, "<h2>%s</h2>\n<p>", _("Collectives matched across ranks"));
  g_string_append_printf (out, _("The %u of %u matched collectives (group, operation) whose durations differ "
                                 "most between ranks. The rank with the shortest duration came last: the others "
                                 "waited for it. A collective counts when the spread is at least 50 µs and a "
                                 "twentieth of the longest duration."), shown, total);
  g_string_append (out, "</p>\n<div class=\"scroll\"><table id=\"collectives\">\n<tr><th>");
  g_string_append (out, _("Collective"));
  g_string_append (out, "</th>");
  for (guint i = 0; i < n; i++)
    if (ranks[i]->error == NULL)
      g_string_append_printf (out, "<th>rank %d</th>", ranks[i]->rank);
  g_string_append_printf (out, "<th>%s</th><th>%s</th></tr>\n", _("Spread"), _("Came last"));
  for (guint i = 0; i < shown; i++)
    append_collective_row (out, ranks, n, sorted[i]);
  g_string_append (out, "</table></div>\n");
}

static void
append_frames_table (GString *out, AfgRankSummary * const *ranks, guint n,
                     const AfgJobFigures *figures)
{
  guint shown = g_strv_length ((char **) figures->frames);
  g_autofree char *intro = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                         "The %u frame (addresses merged) whose total time differs "
                                                         "most between the fastest and the slowest rank (max − min).",
                                                         "The %u frames (addresses merged) whose total time differs "
                                                         "most between the fastest and the slowest rank (max − min).",
                                                         shown),
                                            shown);

  g_string_append_printf (out, "<h2>%s</h2>\n<p>%s</p>\n<div class=\"scroll\"><table id=\"frames\">\n<tr><th>%s</th>",
                          _("Frames that vary most across ranks"), intro, _("Frame"));
  for (guint i = 0; i < n; i++)
    if (ranks[i]->error == NULL)
      g_string_append_printf (out, "<th>rank %d</th>", ranks[i]->rank);
  g_string_append (out, "</tr>\n");
  for (guint f = 0; figures->frames[f] != NULL; f++)
    {
      g_string_append (out, "<tr><td class=\"name\" title=\"");
      append_escaped (out, figures->frames[f]);
      g_string_append (out, "\">");
      append_escaped (out, figures->frames[f]);
      g_string_append (out, "</td>");
      for (guint i = 0; i < n; i++)
        {
          if (ranks[i]->error != NULL)
            continue;
          append_duration_cell (out, afg_rank_summary_frame_ns (ranks[i], figures->frames[f]));
        }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</table></div>\n");
}

char *
afg_ranks_index_write (AfgRankSummary * const *ranks, guint n, const AfgJobFigures *figures,
                       const AfgSummaryOptions *options)
{
  GString *out = g_string_new (NULL);
  g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Training job: %u rank",
                                                         "Training job: %u ranks", n), n);

  g_string_append_printf (out, page_head, title);
  g_string_append_printf (out, "<h1>%s</h1>\n", title);
  append_verdict (out, ranks, n, figures->collectives, options);
  append_ranks_table (out, ranks, n, figures);
  append_collectives_table (out, ranks, n, figures->collectives);
  append_frames_table (out, ranks, n, figures);
  g_string_append (out, "</body>\n</html>\n");
  return g_string_free (out, FALSE);
}
