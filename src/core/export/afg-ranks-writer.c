/* SPDX-License-Identifier: MIT */
/* A job folder's ranks.json and index.html. */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "afg-format.h"
#include "afg-ranks-writer.h"

static void
add_int (JsonBuilder *builder, const char *name, gint64 value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_rank (JsonBuilder *builder, const AfgRankSummary *rank)
{
  json_builder_begin_object (builder);
  add_int (builder, "rank", rank->rank);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, rank->file);
  add_int (builder, "rows", (gint64) rank->rows);
  add_int (builder, "threads", rank->threads);
  add_int (builder, "host_ns", rank->host_ns);
  add_int (builder, "npu_ns", rank->npu_ns);
  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < rank->steps->len; i++)
    {
      const AfgRankStep *step = &g_array_index (rank->steps, AfgRankStep, i);

      json_builder_begin_object (builder);
      add_int (builder, "id", step->id);
      add_int (builder, "host_ns", step->host_ns);
      add_int (builder, "npu_ns", step->npu_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "error");
  if (rank->error != NULL)
    json_builder_add_string_value (builder, rank->error);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
}

char *
afg_ranks_json_write (AfgRankSummary * const *ranks, guint n)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "ascend-flamegraph-ranks");
  add_int (builder, "version", 1);
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    add_rank (builder, ranks[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  return g_strconcat (text, "\n", NULL);
}

static const char page_head[] =
  "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
  "<title>%s</title>\n<style>\n"
  "body{font:14px system-ui,sans-serif;margin:24px;color:#222}\n"
  "table{border-collapse:collapse;margin-bottom:24px}\n"
  "th,td{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right;vertical-align:middle}\n"
  "th:first-child,td:first-child,td.name,#ranks th:last-child{text-align:left}\n"
  "td.name{max-width:40em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\n"
  ".bars{display:flex;align-items:flex-end;gap:1px;height:24px}\n"
  ".bars span{display:inline-block;width:6px;background:#4a7dbf}\n"
  "tr.straggler{background:#fdecea}\ntr.straggler .bars span{background:#c0392b}\n"
  ".status{text-align:left;font-weight:600}\n.error{color:#a00;text-align:left}\n"
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

static gint64
longest_step (AfgRankSummary * const *ranks, guint n)
{
  gint64 longest = 1;

  for (guint i = 0; i < n; i++)
    for (guint s = 0; s < ranks[i]->steps->len; s++)
      longest = MAX (longest, g_array_index (ranks[i]->steps, AfgRankStep, s).host_ns);
  return longest;
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
                              ": %s\"></span>", (int) (2 + 98 * step->host_ns / longest),
                              step->id, shown);
    }
  g_string_append (out, "</div></td>");
}

static void
append_status (GString *out, const AfgJobFigures *figures, guint i)
{
  double percent = figures->deviation[i] * 100;

  if (!figures->judged[i] || !figures->has_median)
    {
      g_string_append (out, "<td>–</td><td class=\"status\">");
      g_string_append (out, _("no steps to compare"));
      g_string_append (out, "</td>");
      return;
    }
  g_string_append_printf (out, "<td>%+.1f%%</td><td class=\"status\">", percent);
  if (figures->straggler[i])
    g_string_append_printf (out, percent > 0 ? _("straggler: mean step %.1f%% slower than the median")
                                             : _("straggler: mean step %.1f%% faster than the median"),
                            ABS (percent));
  else
    g_string_append_printf (out, _("within %d%% of the median"), 5);
  g_string_append (out, "</td>");
}

static void
append_rank_row (GString *out, const AfgRankSummary *rank, const AfgJobFigures *figures, guint i,
                 gint64 longest)
{
  g_string_append_printf (out, "<tr%s><td>", figures->straggler[i] ? " class=\"straggler\"" : "");
  if (rank->error == NULL)
    g_string_append_printf (out, "<a href=\"rank%d/flamegraph.html\">rank %d</a></td><td>",
                            rank->rank, rank->rank);
  else
    g_string_append_printf (out, "rank %d</td><td class=\"error\" colspan=\"5\">", rank->rank);
  if (rank->error != NULL)
    {
      append_escaped (out, rank->error);
      g_string_append (out, "</td></tr>\n");
      return;
    }
  append_duration (out, rank->host_ns);
  g_string_append (out, "</td><td>");
  append_duration (out, rank->npu_ns);
  g_string_append (out, "</td>");
  append_bars (out, rank, longest);
  append_status (out, figures, i);
  g_string_append (out, "</tr>\n");
}

static void
append_ranks_table (GString *out, AfgRankSummary * const *ranks, guint n,
                    const AfgJobFigures *figures)
{
  gint64 longest = longest_step (ranks, n);

  g_string_append_printf (out, "<table id=\"ranks\">\n<tr><th>%s</th><th>%s</th><th>%s</th>"
                          "<th>%s</th><th>%s</th><th>%s</th></tr>\n",
                          _("Rank"), _("Host time"), _("NPU time"), _("Steps"),
                          _("Mean step vs median"), _("Status"));
  for (guint i = 0; i < n; i++)
    append_rank_row (out, ranks[i], figures, i, longest);
  g_string_append (out, "</table>\n");
}

static void
append_frames_table (GString *out, AfgRankSummary * const *ranks, guint n,
                     const AfgJobFigures *figures)
{
  g_string_append_printf (out, "<h2>%s</h2>\n<p>%s</p>\n<div class=\"scroll\"><table id=\"frames\">\n<tr><th>%s</th>",
                          _("Frames that vary most across ranks"),
                          _("The 20 frames (addresses merged) whose total time differs most "
                            "between the fastest and the slowest rank (max − min)."),
                          _("Frame"));
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
          g_string_append (out, "<td>");
          append_duration (out, afg_rank_summary_frame_ns (ranks[i], figures->frames[f]));
          g_string_append (out, "</td>");
        }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</table></div>\n");
}

char *
afg_ranks_index_write (AfgRankSummary * const *ranks, guint n, const AfgJobFigures *figures)
{
  GString *out = g_string_new (NULL);
  g_autofree char *title = g_strdup_printf (_("Training job: %u ranks"), n);

  g_string_append_printf (out, page_head, title);
  g_string_append_printf (out, "<h1>%s</h1>\n", title);
  if (figures->has_median)
    {
      g_autofree char *median = afg_format_duration ((gint64) figures->median_step_ns);

      g_string_append (out, "<p>");
      g_string_append_printf (out, _("Median of the ranks' mean step time: %s. A rank more than "
                                     "5%% from it is marked as a straggler."), median);
      g_string_append (out, "</p>\n");
    }
  append_ranks_table (out, ranks, n, figures);
  append_frames_table (out, ranks, n, figures);
  g_string_append (out, "</body>\n</html>\n");
  return g_string_free (out, FALSE);
}
