/* SPDX-License-Identifier: MIT */
/* Collectives matched across a job's ranks: in synchronous training the
 * slow rank is not the one with longer steps (every rank waits for it,
 * so steps are alike) but the one the others wait for inside collectives. */
#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "afg-format.h"
#include "afg-job-collectives.h"
#include "afg-math.h"

/* One (group, op) as the ranks were read: (rank index, duration) pairs,
 * in rank index order since the ranks are read in that order. */
typedef struct {
  const char *group;
  const char *op;
  GArray     *seen;  /* Occurrence */
} Candidate;

typedef struct {
  guint  rank;
  gint64 ns;
} Occurrence;

typedef struct {
  guint n_ranks;
  guint last;        /* the last rank index added, to add each once */
} Group;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  g_array_unref (c->seen);
  g_free (c);
}

static guint
candidate_hash (gconstpointer key)
{
  const Candidate *c = key;

  return g_str_hash (c->group) * 31 + g_str_hash (c->op);
}

static gboolean
candidate_equal (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;

  return strcmp (x->group, y->group) == 0 && strcmp (x->op, y->op) == 0;
}

static void
note_group (GHashTable *groups, const char *name, guint rank)
{
  Group *group = g_hash_table_lookup (groups, name);

  if (group == NULL)
    {
      group = g_new0 (Group, 1);
      group->last = G_MAXUINT;
      g_hash_table_insert (groups, (gpointer) name, group);
    }
  if (group->last != rank)
    {
      group->n_ranks++;
      group->last = rank;
    }
}

static void
note_occurrence (GHashTable *candidates, const AfgRankCollective *row, guint rank)
{
  Candidate key = { row->group, row->op, NULL };
  Candidate *c = g_hash_table_lookup (candidates, &key);
  Occurrence occurrence = { rank, row->ns };

  if (c == NULL)
    {
      c = g_new (Candidate, 1);
      *c = (Candidate) { row->group, row->op, g_array_new (FALSE, FALSE, sizeof (Occurrence)) };
      g_hash_table_add (candidates, c);
    }
  g_array_append_val (c->seen, occurrence);
}

/* Once on each of the group's ranks: as many occurrences as ranks, no
 * rank twice (occurrences come in rank order). */
static gboolean
is_matched (const Candidate *c, const Group *group)
{
  const Occurrence *seen = (const Occurrence *) c->seen->data;

  if (group->n_ranks < 2 || c->seen->len != group->n_ranks)
    return FALSE;
  for (guint i = 1; i < c->seen->len; i++)
    if (seen[i].rank == seen[i - 1].rank)
      return FALSE;
  return TRUE;
}

/* max - min >= 50 µs and 20 (max - min) >= max, without overflow. */
static gboolean
qualifies (gint64 min, gint64 max)
{
  gint64 spread = max - min;

  if (spread < AFG_COLLECTIVE_MIN_SPREAD_NS)
    return FALSE;
  return spread > G_MAXINT64 / AFG_COLLECTIVE_MIN_SHARE || AFG_COLLECTIVE_MIN_SHARE * spread >= max;
}

static AfgMatchedCollective
match (const Candidate *c, guint n)
{
  const Occurrence *seen = (const Occurrence *) c->seen->data;
  AfgMatchedCollective m = { c->group, c->op, g_new (gint64, MAX (n, 1)), G_MAXINT64, G_MININT64, FALSE };

  for (guint i = 0; i < n; i++)
    m.ns[i] = -1;
  for (guint i = 0; i < c->seen->len; i++)
    {
      m.ns[seen[i].rank] = seen[i].ns;
      m.min_ns = MIN (m.min_ns, seen[i].ns);
      m.max_ns = MAX (m.max_ns, seen[i].ns);
    }
  m.qualifies = qualifies (m.min_ns, m.max_ns);
  return m;
}

static int
compare_matched (gconstpointer a, gconstpointer b)
{
  const AfgMatchedCollective *x = a, *y = b;
  int by_group = strcmp (x->group, y->group);

  return by_group != 0 ? by_group : strcmp (x->op, y->op);
}

static void
count_votes (AfgJobCollectives *self, const AfgMatchedCollective *m, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      if (m->ns[i] < 0)
        continue;
      self->wait_ns[i] = afg_sat_add (self->wait_ns[i], m->ns[i] - m->min_ns);
      if (!m->qualifies)
        continue;
      self->took_part[i]++;
      if (m->ns[i] == m->min_ns)
        self->last_arrivals[i]++;
    }
}

/* The highest share of last arrivals, above one half; ties: the lowest
 * rank. Shares compare as a/b > c/d <=> a d > c b. */
static int
pick_straggler (const AfgJobCollectives *self, AfgRankSummary * const *ranks, guint n)
{
  int best = -1;

  for (guint i = 0; i < n; i++)
    {
      guint64 votes = self->last_arrivals[i], of = self->took_part[i];

      if (of == 0 || 2 * votes <= of)
        continue;
      if (best >= 0)
        {
          guint64 best_votes = self->last_arrivals[best], best_of = self->took_part[best];

          if (votes * best_of < best_votes * of
              || (votes * best_of == best_votes * of && ranks[i]->rank > ranks[best]->rank))
            continue;
        }
      best = (int) i;
    }
  return best;
}

/* A failed rank's rows count too: they are its DB's, whatever the scope
 * that failed it (a rank that could not be read has none). */
static void
collect (AfgRankSummary * const *ranks, guint n, GHashTable *groups, GHashTable *candidates)
{
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < ranks[i]->collectives->len; k++)
      {
        const AfgRankCollective *row = &g_array_index (ranks[i]->collectives, AfgRankCollective, k);

        note_group (groups, row->group, i);
        if (row->op != NULL)
          note_occurrence (candidates, row, i);
      }
}

AfgJobCollectives *
afg_job_collectives_new (AfgRankSummary * const *ranks, guint n)
{
  AfgJobCollectives *self = g_new0 (AfgJobCollectives, 1);
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) candidates = g_hash_table_new_full (candidate_hash, candidate_equal, candidate_free, NULL);
  GHashTableIter iter;
  gpointer key;

  self->matched = g_array_new (FALSE, FALSE, sizeof (AfgMatchedCollective));
  self->wait_ns = g_new0 (gint64, MAX (n, 1));
  self->last_arrivals = g_new0 (guint, MAX (n, 1));
  self->took_part = g_new0 (guint, MAX (n, 1));
  collect (ranks, n, groups, candidates);
  g_hash_table_iter_init (&iter, candidates);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const Candidate *c = key;
      AfgMatchedCollective m;

      if (!is_matched (c, g_hash_table_lookup (groups, c->group)))
        continue;
      m = match (c, n);
      g_array_append_val (self->matched, m);
    }
  g_array_sort (self->matched, compare_matched);
  for (guint i = 0; i < self->matched->len; i++)
    {
      const AfgMatchedCollective *m = &g_array_index (self->matched, AfgMatchedCollective, i);

      self->n_qualifying += m->qualifies;
      count_votes (self, m, n);
    }
  self->straggler = pick_straggler (self, ranks, n);
  return self;
}

void
afg_job_collectives_free (AfgJobCollectives *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->matched->len; i++)
    g_free (g_array_index (self->matched, AfgMatchedCollective, i).ns);
  g_array_unref (self->matched);
  g_free (self->wait_ns);
  g_free (self->last_arrivals);
  g_free (self->took_part);
  g_free (self);
}

/* How long the others waited for the straggler: the spread (max - min)
 * of each qualifying collective at which it came last, summed. */
static gint64
waited_for (const AfgJobCollectives *self, guint rank)
{
  gint64 sum = 0;

  for (guint i = 0; i < self->matched->len; i++)
    {
      const AfgMatchedCollective *m = &g_array_index (self->matched, AfgMatchedCollective, i);

      if (m->qualifies && m->ns[rank] == m->min_ns)
        sum = afg_sat_add (sum, m->max_ns - m->min_ns);
    }
  return sum;
}

char *
afg_job_collectives_explain (const AfgJobCollectives *self, AfgRankSummary * const *ranks)
{
  g_autofree char *waited = NULL;
  guint s;

  if (self->straggler < 0)
    return NULL;
  s = (guint) self->straggler;
  waited = afg_format_duration (waited_for (self, s));
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "others waited %s for rank %d at %u of %u collective",
                                       "others waited %s for rank %d at %u of %u collectives",
                                       self->took_part[s]),
                          waited, ranks[s]->rank, self->last_arrivals[s], self->took_part[s]);
}

char *
afg_job_collectives_verdict (const AfgJobCollectives *self, AfgRankSummary * const *ranks)
{
  g_autofree char *why = afg_job_collectives_explain (self, ranks);

  if (self->matched->len == 0)
    return g_strdup (_("No collective matched across ranks: no rank can be told to be the one the "
                       "others wait for."));
  if (why == NULL)
    return g_strdup_printf (_("The ranks are balanced: no rank came last at more than half of the "
                              "qualifying collectives it took part in (%u qualifying of %u matched)."),
                            self->n_qualifying, self->matched->len);
  return g_strdup_printf (_("Straggler: rank %d. %s."), ranks[self->straggler]->rank, why);
}

static int
compare_ns (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Twice the median, to stay in integers: the middle value doubled, or
 * the middle two added; -1 for none. Unsigned: times are never negative
 * (the summary reader refuses them), and twice any gint64 fits. */
static gboolean
twice_median (AfgRankSummary * const *ranks, guint n, guint64 *twice)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint m;

  for (guint i = 0; i < n; i++)
    if (ranks[i]->error == NULL && ranks[i]->has_device)
      g_array_append_val (values, ranks[i]->device.compute_ns);
  if (values->len == 0)
    return FALSE;
  g_array_sort (values, compare_ns);
  m = values->len / 2;
  *twice = (guint64) g_array_index (values, gint64, values->len % 2 == 1 ? m : m - 1)
           + (guint64) g_array_index (values, gint64, m);
  return TRUE;
}

int
afg_job_reference_rank (AfgRankSummary * const *ranks, guint n, int straggler)
{
  guint64 twice;
  int best = -1;
  guint64 best_distance = 0;

  if (!twice_median (ranks, n, &twice))
    return -1;
  for (guint i = 0; i < n; i++)
    {
      guint64 doubled, distance;

      if ((int) i == straggler || ranks[i]->error != NULL || !ranks[i]->has_device)
        continue;
      doubled = 2 * (guint64) ranks[i]->device.compute_ns;
      distance = doubled > twice ? doubled - twice : twice - doubled;
      if (best < 0 || distance < best_distance
          || (distance == best_distance && ranks[i]->rank < ranks[best]->rank))
        {
          best = (int) i;
          best_distance = distance;
        }
    }
  return best;
}

gboolean
afg_job_step_offset (AfgDocument *a, AfgDocument *b, guint *n_common, gint64 *offset_ns)
{
  guint n_a, n_b;
  const AfgStep *steps_a = afg_document_get_steps (a, &n_a);
  const AfgStep *steps_b = afg_document_get_steps (b, &n_b);
  double sum = 0;

  *n_common = 0;
  for (guint i = 0; i < n_a; i++)
    for (guint j = 0; j < n_b; j++)
      if (steps_a[i].id == steps_b[j].id)
        {
          sum += (double) (steps_a[i].start_ns - steps_b[j].start_ns);
          (*n_common)++;
          break;
        }
  *offset_ns = *n_common > 0 ? (gint64) (sum / *n_common) : 0;
  return *n_common > 0;
}

char *
afg_job_explain_offset (int rank_a, AfgDocument *a, int rank_b, AfgDocument *b)
{
  guint n;
  gint64 offset;
  g_autofree char *shift = NULL;
  g_autofree char *over = NULL;

  if (!afg_job_step_offset (a, b, &n, &offset))
    return g_strdup_printf (_("rank %d and rank %d have no step in common"), rank_a, rank_b);
  shift = afg_format_duration (ABS (offset));
  over = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "the %u step both have", "mean over the %u steps both have", n),
                          n);
  if (offset > 0)
    return g_strdup_printf (_("rank %d's steps start %s later than rank %d's (%s)"), rank_a, shift, rank_b, over);
  if (offset < 0)
    return g_strdup_printf (_("rank %d's steps start %s earlier than rank %d's (%s)"), rank_a, shift, rank_b, over);
  return g_strdup_printf (_("rank %d's steps start when rank %d's do (%s)"), rank_a, rank_b, over);
}
