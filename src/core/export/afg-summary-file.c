/* SPDX-License-Identifier: MIT */
/* One rank's summary as a file, so that the ranks of a job can be read
 * on many machines (map) and merged into ranks.json and index.html
 * (reduce). The job folder's export goes through the same text, which
 * keeps the two paths byte-identical. */
#include "config.h"

#include <glib/gi18n.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include <string.h>

#include "afg-json-writer.h"
#include "afg-summary-file.h"

static void
append_string (GString *out, const char *text)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  afg_json_append_string (out, text);
}

static void
append_member_int (GString *out, const char *name, gint64 value)
{
  g_string_append_printf (out, ",\"%s\":", name);
  afg_json_append_int (out, value);
}

static void
append_device (GString *out, gboolean has_device, const AfgDeviceSplit *d)
{
  g_string_append (out, ",\"device\":");
  if (!has_device)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append_printf (out, "[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%"
                          G_GINT64_FORMAT "]", d->compute_ns, d->comm_ns, d->other_ns, d->free_ns);
}

static void
append_options (GString *out, const AfgSummaryOptions *options)
{
  g_string_append (out, ",\"options\":{\"steps\":");
  if (options->has_steps)
    g_string_append_printf (out, "[%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "]", options->first_step,
                            options->last_step);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ",\"merge_addresses\":%s,\"npu_idle\":%s}",
                          options->merge_addresses ? "true" : "false", options->npu_idle ? "true" : "false");
}

static void
append_steps (GString *out, const AfgRankSummary *rank)
{
  g_string_append (out, ",\"steps\":[");
  for (guint i = 0; i < rank->steps->len; i++)
    {
      const AfgRankStep *step = &g_array_index (rank->steps, AfgRankStep, i);

      g_string_append_printf (out, "%s{\"id\":%" G_GINT64_FORMAT, i ? "," : "", step->id);
      append_member_int (out, "host_ns", step->host_ns);
      append_member_int (out, "npu_ns", step->npu_ns);
      append_device (out, rank->has_device, &step->device);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}

static void
append_collectives (GString *out, const AfgRankSummary *rank)
{
  g_string_append (out, ",\"collectives\":[");
  for (guint i = 0; i < rank->collectives->len; i++)
    {
      const AfgRankCollective *c = &g_array_index (rank->collectives, AfgRankCollective, i);

      g_string_append (out, i ? ",[" : "[");
      append_string (out, c->group);
      g_string_append_c (out, ',');
      append_string (out, c->op);
      g_string_append_printf (out, ",%" G_GINT64_FORMAT "]", c->ns);
    }
  g_string_append_c (out, ']');
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* By name, so that the same rank always writes the same text. */
static void
append_frames (GString *out, const AfgRankSummary *rank)
{
  guint n = 0;
  g_autofree gpointer *names = g_hash_table_get_keys_as_array (rank->frames, &n);

  qsort (names, n, sizeof (gpointer), compare_names);
  g_string_append (out, ",\"frames\":[");
  for (guint i = 0; i < n; i++)
    {
      g_string_append (out, i ? ",[" : "[");
      append_string (out, names[i]);
      g_string_append_printf (out, ",%" G_GINT64_FORMAT "]", afg_rank_summary_frame_ns (rank, names[i]));
    }
  g_string_append_c (out, ']');
}

char *
afg_summary_file_write (const AfgRankSummary *rank, const AfgSummaryOptions *options)
{
  GString *out = g_string_new ("{\"format\":\"" AFG_SUMMARY_FORMAT "\",\"version\":1");

  append_options (out, options);
  g_string_append_printf (out, ",\"rank\":%d,\"file\":", rank->rank);
  append_string (out, rank->file);
  append_member_int (out, "rows", (gint64) rank->rows);
  append_member_int (out, "threads", rank->threads);
  append_member_int (out, "host_ns", rank->host_ns);
  append_member_int (out, "npu_ns", rank->npu_ns);
  append_device (out, rank->has_device, &rank->device);
  append_member_int (out, "comm_ns", rank->comm_ns);
  append_steps (out, rank);
  append_collectives (out, rank);
  append_frames (out, rank);
  g_string_append (out, ",\"error\":");
  append_string (out, rank->error);
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

gboolean
afg_summary_options_equal (const AfgSummaryOptions *a, const AfgSummaryOptions *b)
{
  return a->has_steps == b->has_steps && (!a->has_steps || (a->first_step == b->first_step
                                                            && a->last_step == b->last_step))
         && a->merge_addresses == b->merge_addresses && a->npu_idle == b->npu_idle;
}

/* Reading: any member of the wrong type makes the file invalid. */
typedef struct {
  const char *problem;
} Reader;

static JsonNode *
member (Reader *r, JsonObject *object, const char *name, JsonNodeType type)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || JSON_NODE_TYPE (node) != type)
    {
      if (r->problem == NULL)
        r->problem = name;
      return NULL;
    }
  return node;
}

static gint64
int_at (Reader *r, JsonNode *node, const char *what)
{
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      if (r->problem == NULL)
        r->problem = what;
      return 0;
    }
  return json_node_get_int (node);
}

static gint64
get_int (Reader *r, JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return int_at (r, node, name);
}

static gboolean
get_bool (Reader *r, JsonObject *object, const char *name)
{
  JsonNode *node = member (r, object, name, JSON_NODE_VALUE);

  if (node != NULL && json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node);
  if (r->problem == NULL)
    r->problem = name;
  return FALSE;
}

/* A string, or NULL for null when @nullable. */
static const char *
string_at (Reader *r, JsonNode *node, gboolean nullable, const char *what)
{
  if (node != NULL && nullable && JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      if (r->problem == NULL)
        r->problem = what;
      return NULL;
    }
  return json_node_get_string (node);
}

static JsonArray *
tuple_at (Reader *r, JsonArray *array, guint i, guint length, const char *what)
{
  JsonNode *node = json_array_get_element (array, i);
  JsonArray *tuple = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;

  if (tuple == NULL || json_array_get_length (tuple) != length)
    {
      if (r->problem == NULL)
        r->problem = what;
      return NULL;
    }
  return tuple;
}

/* null, or [compute, comm, other, free]. */
static gboolean
read_device (Reader *r, JsonObject *object, AfgDeviceSplit *split)
{
  JsonNode *node = json_object_get_member (object, "device");
  JsonArray *parts;

  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  parts = node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
  if (parts == NULL || json_array_get_length (parts) != 4)
    {
      if (r->problem == NULL)
        r->problem = "device";
      return FALSE;
    }
  split->compute_ns = int_at (r, json_array_get_element (parts, 0), "device");
  split->comm_ns = int_at (r, json_array_get_element (parts, 1), "device");
  split->other_ns = int_at (r, json_array_get_element (parts, 2), "device");
  split->free_ns = int_at (r, json_array_get_element (parts, 3), "device");
  return TRUE;
}

static void
read_options (Reader *r, JsonObject *root, AfgSummaryOptions *options)
{
  JsonNode *node = member (r, root, "options", JSON_NODE_OBJECT);
  JsonObject *object = node != NULL ? json_node_get_object (node) : NULL;
  JsonNode *steps = object != NULL ? json_object_get_member (object, "steps") : NULL;

  *options = (AfgSummaryOptions) { 0 };
  if (object == NULL)
    return;
  if (steps != NULL && JSON_NODE_HOLDS_ARRAY (steps) && json_array_get_length (json_node_get_array (steps)) == 2)
    {
      options->has_steps = TRUE;
      options->first_step = int_at (r, json_array_get_element (json_node_get_array (steps), 0), "steps");
      options->last_step = int_at (r, json_array_get_element (json_node_get_array (steps), 1), "steps");
    }
  else if (steps == NULL || !JSON_NODE_HOLDS_NULL (steps))
    r->problem = r->problem != NULL ? r->problem : "steps";
  options->merge_addresses = get_bool (r, object, "merge_addresses");
  options->npu_idle = get_bool (r, object, "npu_idle");
}

static void
read_steps (Reader *r, JsonObject *root, AfgRankSummary *rank)
{
  JsonNode *node = member (r, root, "steps", JSON_NODE_ARRAY);
  JsonArray *array = node != NULL ? json_node_get_array (node) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array) && r->problem == NULL; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      AfgRankStep step = { 0 };

      if (object == NULL)
        {
          r->problem = "steps";
          return;
        }
      step.id = get_int (r, object, "id");
      step.host_ns = get_int (r, object, "host_ns");
      step.npu_ns = get_int (r, object, "npu_ns");
      if (read_device (r, object, &step.device) != rank->has_device && r->problem == NULL)
        r->problem = "device";
      g_array_append_val (rank->steps, step);
    }
}

static void
read_collectives (Reader *r, JsonObject *root, AfgRankSummary *rank)
{
  JsonNode *node = member (r, root, "collectives", JSON_NODE_ARRAY);
  JsonArray *array = node != NULL ? json_node_get_array (node) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array) && r->problem == NULL; i++)
    {
      JsonArray *tuple = tuple_at (r, array, i, 3, "collectives");
      const char *group, *op;
      gint64 ns;

      if (tuple == NULL)
        return;
      group = string_at (r, json_array_get_element (tuple, 0), FALSE, "collectives");
      op = string_at (r, json_array_get_element (tuple, 1), TRUE, "collectives");
      ns = int_at (r, json_array_get_element (tuple, 2), "collectives");
      if (r->problem == NULL)
        afg_rank_summary_add_collective (rank, group, op, ns);
    }
}

static void
read_frames (Reader *r, JsonObject *root, AfgRankSummary *rank)
{
  JsonNode *node = member (r, root, "frames", JSON_NODE_ARRAY);
  JsonArray *array = node != NULL ? json_node_get_array (node) : NULL;

  for (guint i = 0; array != NULL && i < json_array_get_length (array) && r->problem == NULL; i++)
    {
      JsonArray *tuple = tuple_at (r, array, i, 2, "frames");
      const char *name;
      gint64 ns;

      if (tuple == NULL)
        return;
      name = string_at (r, json_array_get_element (tuple, 0), FALSE, "frames");
      ns = int_at (r, json_array_get_element (tuple, 1), "frames");
      if (r->problem == NULL)
        g_hash_table_insert (rank->frames, g_strdup (name), g_memdup2 (&ns, sizeof ns));
    }
}

static AfgRankSummary *
read_rank (Reader *r, JsonObject *root)
{
  gint64 number = get_int (r, root, "rank");
  const char *file = string_at (r, json_object_get_member (root, "file"), FALSE, "file");
  g_autoptr(AfgRankSummary) rank = NULL;

  if (r->problem != NULL || number < -1 || number > G_MAXINT)
    {
      r->problem = r->problem != NULL ? r->problem : "rank";
      return NULL;
    }
  rank = afg_rank_summary_new ((int) number, file);
  rank->rows = (guint64) get_int (r, root, "rows");
  rank->threads = (guint) get_int (r, root, "threads");
  rank->host_ns = get_int (r, root, "host_ns");
  rank->npu_ns = get_int (r, root, "npu_ns");
  rank->has_device = read_device (r, root, &rank->device);
  rank->comm_ns = get_int (r, root, "comm_ns");
  rank->error = g_strdup (string_at (r, json_object_get_member (root, "error"), TRUE, "error"));
  read_steps (r, root, rank);
  read_collectives (r, root, rank);
  read_frames (r, root, rank);
  return r->problem == NULL ? g_steal_pointer (&rank) : NULL;
}

AfgRankSummary *
afg_summary_file_read (const char *text, gsize length, AfgSummaryOptions *options, GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) parse_error = NULL;
  JsonNode *root;
  JsonObject *object;
  Reader r = { NULL };
  AfgRankSummary *rank;

  if (!json_parser_load_from_data (parser, text, (gssize) length, &parse_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("not a rank summary: %s"), parse_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  object = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  if (object == NULL || g_strcmp0 (string_at (&r, json_object_get_member (object, "format"), FALSE, "format"),
                                   AFG_SUMMARY_FORMAT) != 0
      || get_int (&r, object, "version") != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("not a rank summary of version 1 (format \"%s\")"), AFG_SUMMARY_FORMAT);
      return NULL;
    }
  read_options (&r, object, options);
  rank = r.problem == NULL ? read_rank (&r, object) : NULL;
  if (rank == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("not a rank summary: bad or missing \"%s\""),
                 r.problem);
  return rank;
}
