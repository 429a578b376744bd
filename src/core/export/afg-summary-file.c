/* SPDX-License-Identifier: MIT */
/* One rank's summary as a file, so that the ranks of a job can be read
 * on many machines (map) and merged into ranks.json and index.html
 * (reduce). The job folder's export goes through the same text, which
 * keeps the two paths byte-identical. */
#include "config.h"

#include <glib/gi18n.h>
#include <gio/gio.h>

#include <string.h>

#include "afg-json-writer.h"
#include "afg-names.h"
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

void
afg_summary_append_figures (GString *out, const AfgRankSummary *rank, AfgDeviceWriteFunc append_device)
{
  afg_json_append_member_int (out, "rows", (gint64) rank->rows);
  afg_json_append_member_int (out, "threads", rank->threads);
  afg_json_append_member_int (out, "host_ns", rank->host_ns);
  afg_json_append_member_int (out, "npu_ns", rank->npu_ns);
  append_device (out, rank->has_device, &rank->device);
  afg_json_append_member_int (out, "comm_ns", rank->comm_ns);
}

void
afg_summary_append_steps (GString *out, const AfgRankSummary *rank, AfgDeviceWriteFunc append_device)
{
  g_string_append (out, ",\"steps\":[");
  for (guint i = 0; i < rank->steps->len; i++)
    {
      const AfgRankStep *step = &g_array_index (rank->steps, AfgRankStep, i);

      g_string_append_printf (out, "%s{\"id\":%" G_GINT64_FORMAT, i ? "," : "", step->id);
      afg_json_append_member_int (out, "host_ns", step->host_ns);
      afg_json_append_member_int (out, "npu_ns", step->npu_ns);
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
  afg_summary_append_figures (out, rank, append_device);
  afg_summary_append_steps (out, rank, append_device);
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

/* Reading. json-glib builds a node per value: 40 ms for a rank of 20,000
 * frames, 40 s for 1,024 ranks. This reader takes the values as it meets
 * them. Any value of the wrong type, or text that is not JSON, makes the
 * file invalid; members it does not know are skipped. */
#define MAX_DEPTH 64

typedef struct {
  const char *p;
  const char *end;
  GString    *text;     /* the last string read */
  const char *problem;  /* what was read when the text went wrong */
} Scan;

static gboolean
fail (Scan *s, const char *what)
{
  if (s->problem == NULL)
    s->problem = what;
  s->p = s->end;
  return FALSE;
}

static void
skip_space (Scan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

static gboolean
eat (Scan *s, char c)
{
  skip_space (s);
  if (s->p < s->end && *s->p == c)
    {
      s->p++;
      return TRUE;
    }
  return FALSE;
}

static gboolean
expect (Scan *s, char c, const char *what)
{
  return eat (s, c) || fail (s, what);
}

static gboolean
literal (Scan *s, const char *word)
{
  gsize len = strlen (word);

  skip_space (s);
  if ((gsize) (s->end - s->p) < len || memcmp (s->p, word, len) != 0)
    return FALSE;
  s->p += len;
  return TRUE;
}

static int
hex4 (Scan *s)
{
  int value = 0;

  if (s->end - s->p < 4)
    return -1;
  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (*s->p++);

      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* \uXXXX, a surrogate pair as one character; none may be NUL. */
static gboolean
unicode_escape (Scan *s)
{
  int high = hex4 (s), low;

  if (high <= 0 || (high >= 0xdc00 && high < 0xe000))
    return FALSE;
  if (high < 0xd800 || high >= 0xdc00)
    {
      g_string_append_unichar (s->text, (gunichar) high);
      return TRUE;
    }
  if (s->end - s->p < 2 || s->p[0] != '\\' || s->p[1] != 'u')
    return FALSE;
  s->p += 2;
  low = hex4 (s);
  if (low < 0xdc00 || low >= 0xe000)
    return FALSE;
  g_string_append_unichar (s->text, 0x10000 + ((gunichar) (high - 0xd800) << 10) + (gunichar) (low - 0xdc00));
  return TRUE;
}

static gboolean
escape (Scan *s)
{
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  const char *at;

  if (s->p >= s->end)
    return FALSE;
  if (*s->p == 'u')
    {
      s->p++;
      return unicode_escape (s);
    }
  at = strchr (from, *s->p);
  if (at == NULL || *s->p == '\0')
    return FALSE;
  g_string_append_c (s->text, to[at - from]);
  s->p++;
  return TRUE;
}

/* Into s->text, valid UTF-8 without NUL. */
static gboolean
read_string (Scan *s, const char *what)
{
  if (!expect (s, '"', what))
    return FALSE;
  g_string_truncate (s->text, 0);
  while (s->p < s->end)
    {
      const char *run = s->p;

      while (s->p < s->end && *s->p != '"' && *s->p != '\\' && (guchar) *s->p >= 0x20)
        s->p++;
      g_string_append_len (s->text, run, s->p - run);
      if (s->p >= s->end || (guchar) *s->p < 0x20)
        break;
      if (*s->p++ == '"')
        return g_utf8_validate (s->text->str, (gssize) s->text->len, NULL) || fail (s, what);
      if (!escape (s))
        break;
    }
  return fail (s, what);
}

/* A string, or NULL for null. */
static const char *
read_nullable_string (Scan *s, const char *what)
{
  if (literal (s, "null"))
    return NULL;
  return read_string (s, what) ? s->text->str : NULL;
}

static gboolean
read_int (Scan *s, gint64 *value, const char *what)
{
  gboolean negative;
  guint64 magnitude = 0, limit;
  const char *digits;

  skip_space (s);
  negative = s->p < s->end && *s->p == '-';
  s->p += negative;
  limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
  for (digits = s->p; s->p < s->end && g_ascii_isdigit (*s->p); s->p++)
    {
      guint digit = (guint) (*s->p - '0');

      if (magnitude > (limit - digit) / 10)
        return fail (s, what);
      magnitude = magnitude * 10 + digit;
    }
  if (s->p == digits || (s->p < s->end && (*s->p == '.' || *s->p == 'e' || *s->p == 'E')))
    return fail (s, what);
  *value = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

/* A time or a count: the writer never writes a negative one, and the
 * job's figures take -1 for "absent" and sum them unchecked below 0. */
static gboolean
read_ns (Scan *s, gint64 *value, const char *what)
{
  return read_int (s, value, what) && (*value >= 0 || fail (s, what));
}

static gboolean
read_bool (Scan *s, gboolean *value, const char *what)
{
  if (literal (s, "true"))
    *value = TRUE;
  else if (literal (s, "false"))
    *value = FALSE;
  else
    return fail (s, what);
  return TRUE;
}

static gboolean skip_value (Scan *s, guint depth);

/* Calls @item for each comma-separated item after an opening bracket,
 * until one fails or @close ends them. */
typedef gboolean (*ItemFunc) (Scan *s, gpointer data);

static gboolean
read_items (Scan *s, char close, ItemFunc item, gpointer data, const char *what)
{
  if (eat (s, close))
    return TRUE;
  do
    if (!item (s, data))
      return FALSE;
  while (eat (s, ','));
  return expect (s, close, what);
}

typedef struct {
  char  close;
  guint depth;
} Skip;

static gboolean
skip_item (Scan *s, gpointer data)
{
  const Skip *k = data;

  if (k->close == '}' && (!read_string (s, "member") || !expect (s, ':', "member")))
    return FALSE;
  return skip_value (s, k->depth + 1);
}

/* The elements of an array or the members of an object, each skipped. */
static gboolean
skip_items (Scan *s, char close, guint depth)
{
  Skip k = { close, depth };

  return read_items (s, close, skip_item, &k, "value");
}

static gboolean
skip_value (Scan *s, guint depth)
{
  gint64 number;

  if (depth > MAX_DEPTH)
    return fail (s, "value");
  skip_space (s);
  if (s->p >= s->end)
    return fail (s, "value");
  if (*s->p == '"')
    return read_string (s, "value");
  if (eat (s, '{'))
    return skip_items (s, '}', depth);
  if (eat (s, '['))
    return skip_items (s, ']', depth);
  if (literal (s, "null") || literal (s, "true") || literal (s, "false"))
    return TRUE;
  return read_int (s, &number, "value");
}

/* Calls @member with each member's name (in s->text, copied) until one
 * fails. */
typedef gboolean (*MemberFunc) (Scan *s, const char *name, gpointer data);

typedef struct {
  MemberFunc  member;
  gpointer    data;
  const char *what;
} Members;

static gboolean
read_member (Scan *s, gpointer data)
{
  const Members *m = data;
  g_autofree char *name = NULL;

  if (!read_string (s, m->what) || !expect (s, ':', m->what))
    return FALSE;
  name = g_strdup (s->text->str);
  return m->member (s, name, m->data);
}

static gboolean
read_object (Scan *s, MemberFunc member, gpointer data, const char *what)
{
  Members m = { member, data, what };

  return expect (s, '{', what) && read_items (s, '}', read_member, &m, what);
}

/* Calls @element for each element until one fails. */
static gboolean
read_array (Scan *s, ItemFunc element, gpointer data, const char *what)
{
  return expect (s, '[', what) && read_items (s, ']', element, data, what);
}

/* null (FALSE), or [compute, comm, other, free]. */
static gboolean
read_device (Scan *s, AfgDeviceSplit *split)
{
  if (literal (s, "null"))
    return FALSE;
  return expect (s, '[', "device") && read_ns (s, &split->compute_ns, "device") && expect (s, ',', "device")
         && read_ns (s, &split->comm_ns, "device") && expect (s, ',', "device")
         && read_ns (s, &split->other_ns, "device") && expect (s, ',', "device")
         && read_ns (s, &split->free_ns, "device") && expect (s, ']', "device");
}

typedef struct {
  AfgSummaryOptions *options;
  guint              seen;
} OptionsRead;

static gboolean
option_member (Scan *s, const char *name, gpointer data)
{
  OptionsRead *r = data;

  if (strcmp (name, "steps") == 0)
    {
      r->seen |= 1;
      if (literal (s, "null"))
        return TRUE;
      r->options->has_steps = TRUE;
      return expect (s, '[', "steps") && read_int (s, &r->options->first_step, "steps") && expect (s, ',', "steps")
             && read_int (s, &r->options->last_step, "steps") && expect (s, ']', "steps");
    }
  if (strcmp (name, "merge_addresses") == 0)
    return (r->seen |= 2) && read_bool (s, &r->options->merge_addresses, "merge_addresses");
  if (strcmp (name, "npu_idle") == 0)
    return (r->seen |= 4) && read_bool (s, &r->options->npu_idle, "npu_idle");
  return skip_value (s, 1);
}

typedef struct {
  AfgRankStep step;
  guint       seen;
} StepRead;

static gboolean
step_member (Scan *s, const char *name, gpointer data)
{
  StepRead *r = data;
  static const char * const names[] = { "id", "host_ns", "npu_ns" };
  gint64 *fields[] = { &r->step.id, &r->step.host_ns, &r->step.npu_ns };

  guint i;

  if (afg_names_find (names, G_N_ELEMENTS (names), name, &i))
    return (r->seen |= 1u << i) && (i == 0 ? read_int : read_ns) (s, fields[i], "steps");
  if (strcmp (name, "device") == 0)
    {
      read_device (s, &r->step.device);
      return s->problem == NULL;
    }
  return skip_value (s, 2);
}

static gboolean
step_element (Scan *s, gpointer data)
{
  AfgRankSummary *rank = data;
  StepRead r = { { 0 }, 0 };

  if (!read_object (s, step_member, &r, "steps"))
    return FALSE;
  if (r.seen != 7)
    return fail (s, "steps");
  g_array_append_val (rank->steps, r.step);
  return TRUE;
}

static gboolean
collective_element (Scan *s, gpointer data)
{
  AfgRankSummary *rank = data;
  g_autofree char *group = NULL;
  const char *op;
  gint64 ns;

  if (!expect (s, '[', "collectives") || !read_string (s, "collectives") || !expect (s, ',', "collectives"))
    return FALSE;
  group = g_strdup (s->text->str);
  op = read_nullable_string (s, "collectives");
  if (s->problem != NULL || !expect (s, ',', "collectives"))
    return FALSE;
  op = op != NULL ? g_string_chunk_insert_const (rank->names, op) : NULL;
  if (!read_ns (s, &ns, "collectives") || !expect (s, ']', "collectives"))
    return FALSE;
  afg_rank_summary_add_collective (rank, group, op, ns);
  return TRUE;
}

typedef struct {
  AfgRankSummary    *rank;
  AfgSummaryOptions *options;
  AfgFrameReducer   *reducer;
  guint              seen;
  GString           *name;  /* of the frame being read */
} RankRead;

static gboolean
frame_element (Scan *s, gpointer data)
{
  RankRead *r = data;
  gint64 ns;

  if (!expect (s, '[', "frames") || !read_string (s, "frames") || !expect (s, ',', "frames"))
    return FALSE;
  g_string_assign (r->name, s->text->str);
  if (!read_ns (s, &ns, "frames") || !expect (s, ']', "frames"))
    return FALSE;
  if (r->reducer != NULL)
    afg_frame_reducer_add (r->reducer, r->rank, r->name->str, ns);
  else
    g_hash_table_insert (r->rank->frames, g_strdup (r->name->str), g_memdup2 (&ns, sizeof ns));
  return TRUE;
}

static const char * const required[] = {
  "format", "version", "options", "rank", "file", "rows", "threads", "host_ns", "npu_ns", "device",
  "comm_ns", "steps", "collectives", "frames", "error",
};

static gboolean
read_counts (Scan *s, const char *name, AfgRankSummary *rank)
{
  gint64 value;

  if (!(strcmp (name, "rank") == 0 ? read_int : read_ns) (s, &value, name))
    return FALSE;
  if (strcmp (name, "rank") == 0 && (value < -1 || value > G_MAXINT))
    return fail (s, name);
  if (strcmp (name, "threads") == 0 && value > G_MAXUINT)
    return fail (s, name);
  if (strcmp (name, "rank") == 0)
    rank->rank = (int) value;
  else if (strcmp (name, "rows") == 0)
    rank->rows = (guint64) value;
  else if (strcmp (name, "threads") == 0)
    rank->threads = (guint) value;
  else if (strcmp (name, "host_ns") == 0)
    rank->host_ns = value;
  else if (strcmp (name, "npu_ns") == 0)
    rank->npu_ns = value;
  else
    rank->comm_ns = value;
  return TRUE;
}

static gboolean
rank_member (Scan *s, const char *name, gpointer data)
{
  RankRead *r = data;
  AfgRankSummary *rank = r->rank;
  gint64 version;
  guint k;

  for (k = 0; k < G_N_ELEMENTS (required) && strcmp (name, required[k]) != 0; k++)
    ;
  if (k == G_N_ELEMENTS (required))
    return skip_value (s, 1);
  /* What a problem names must outlive the member's name. */
  name = required[k];
  r->seen |= 1u << k;
  if (strcmp (name, "format") == 0)
    return read_string (s, name) && (strcmp (s->text->str, AFG_SUMMARY_FORMAT) == 0 || fail (s, name));
  if (strcmp (name, "version") == 0)
    return read_int (s, &version, name) && (version == 1 || fail (s, name));
  if (strcmp (name, "options") == 0)
    {
      OptionsRead o = { r->options, 0 };

      return read_object (s, option_member, &o, name) && (o.seen == 7 || fail (s, name));
    }
  if (strcmp (name, "file") == 0)
    return read_string (s, name) && (g_free (rank->file), rank->file = g_strdup (s->text->str), TRUE);
  if (strcmp (name, "error") == 0)
    {
      const char *error = read_nullable_string (s, name);

      g_free (rank->error);
      rank->error = g_strdup (error);
      return s->problem == NULL;
    }
  if (strcmp (name, "device") == 0)
    {
      rank->has_device = read_device (s, &rank->device);
      return s->problem == NULL;
    }
  if (strcmp (name, "steps") == 0)
    return read_array (s, step_element, rank, name);
  if (strcmp (name, "collectives") == 0)
    return read_array (s, collective_element, rank, name);
  if (strcmp (name, "frames") == 0)
    return read_array (s, frame_element, r, name);
  return read_counts (s, name, rank);
}

AfgRankSummary *
afg_summary_file_read (const char *text, gsize length, AfgFrameReducer *reducer, AfgSummaryOptions *options,
                       GError **error)
{
  g_autoptr(AfgRankSummary) rank = afg_rank_summary_new (-1, "");
  Scan s = { text, text + length, g_string_new (NULL), NULL };
  RankRead r = { rank, options, reducer, 0, g_string_new (NULL) };

  *options = (AfgSummaryOptions) { 0 };
  if (read_object (&s, rank_member, &r, "format"))
    {
      skip_space (&s);
      if (s.p != s.end)
        fail (&s, "the end");
    }
  for (guint k = 0; s.problem == NULL && k < G_N_ELEMENTS (required); k++)
    if (!(r.seen & (1u << k)))
      s.problem = required[k];
  g_string_free (s.text, TRUE);
  g_string_free (r.name, TRUE);
  if (s.problem != NULL)
    {
      if (reducer != NULL)
        afg_frame_reducer_forget (reducer, rank);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("not a rank summary (%s) of version 1: bad or missing \"%s\""), AFG_SUMMARY_FORMAT, s.problem);
      return NULL;
    }
  return g_steal_pointer (&rank);
}
