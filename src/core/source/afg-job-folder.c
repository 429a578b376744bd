/* SPDX-License-Identifier: MIT */
/* Discovery: the profiler DBs of a training job's folder. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-error.h"
#include "afg-format.h"
#include "afg-job-folder.h"

#define DB_PREFIX   "ascend_pytorch_profiler"
#define INFO_PREFIX "profiler_info_"
#define PT_SUFFIX   "_ascend_pt"
#define STAMP_DIGITS 17   /* YYYYMMDDHHMMSSmmm */

G_DEFINE_QUARK (afg-job-error-quark, afg_job_error)

typedef struct {
  char         *root;      /* realpath of the job folder */
  GHashTable   *seen;      /* "dev:ino" of every directory and DB visited */
  GHashTable   *by_rank;   /* GINT_TO_POINTER (rank) -> AfgJobRank * */
  GPtrArray    *warnings;
  guint         entries;
  gboolean      exhausted;
  char         *too_deep;  /* the first folder left unsearched at the depth limit */
  GQueue        links;     /* Link *: symbolic links, followed once the rest is walked */
} Walk;

/* A symbolic link in the folder: followed after every real entry, so that
 * a link never takes the place (and the rank) of the DB it points to. */
typedef struct {
  char   *dir;
  char   *name;
  int     depth;
  gint64  stamp;
} Link;

static void
link_free (Link *link)
{
  g_free (link->dir);
  g_free (link->name);
  g_free (link);
}

static void walk_dir (Walk *walk, const char *dir, int depth, gint64 stamp);

static void
job_rank_free (gpointer data)
{
  AfgJobRank *rank = data;

  g_free (rank->path);
  g_free (rank);
}

/* Why a DB is rank -1: rank_from_info()'s -2 (files that disagree) or
 * another negative (none). */
static const char *
no_rank_reason (int rank)
{
  return rank == -2 ? _("profiler_info files disagree on the rank; shown as rank -1")
                    : _("not named ascend_pytorch_profiler_{N}.db and no profiler_info_{N}.json beside it; "
                        "shown as rank -1");
}

static void
warn (Walk *walk, const char *path, const char *reason)
{
  g_autofree char *shown = afg_format_path (path);

  g_ptr_array_add (walk->warnings, g_strdup_printf (_("%s: %s"), shown, reason));
}

/* Digits only, at most 9 of them: the value, else -1. */
static int
parse_rank (const char *digits, gsize len)
{
  int value = 0;

  if (len == 0 || len > 9)
    return -1;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (digits[i]))
        return -1;
      value = value * 10 + (digits[i] - '0');
    }
  return value;
}

/* ascend_pytorch_profiler_{N}.db with 10 digits or more in N: a rank
 * beyond what a job has. */
static gboolean
has_long_rank (const char *name)
{
  gsize prefix = strlen (DB_PREFIX "_"), len = strlen (name);

  if (!g_str_has_prefix (name, DB_PREFIX "_") || !g_str_has_suffix (name, ".db") || len < prefix + 10 + 3)
    return FALSE;
  for (gsize i = prefix; i < len - 3; i++)
    if (!g_ascii_isdigit (name[i]))
      return FALSE;
  return TRUE;
}

/* ascend_pytorch_profiler_{N}.db: N; ascend_pytorch_profiler.db: -1;
 * anything else: -2 (not a profiler DB). */
static int
rank_from_db_name (const char *name)
{
  gsize len = strlen (name);
  const char *rest = name + strlen (DB_PREFIX);

  if (!g_str_has_prefix (name, DB_PREFIX) || !g_str_has_suffix (name, ".db"))
    return -2;
  if (strcmp (rest, ".db") == 0)
    return -1;
  if (rest[0] != '_' || len < strlen (DB_PREFIX) + 5)
    return -2;
  rest++;
  {
    int rank = parse_rank (rest, name + len - 3 - rest);
    return rank < 0 ? -2 : rank;
  }
}

/* The N of the only profiler_info_{N}.json in @dir; -1 when none, -2
 * when several disagree. */
/* An entry whose loss would lose a rank: a DB's name (any rank) or a
 * torch_npu rank folder's. */
static gboolean
names_a_rank (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);

  return rank_from_db_name (name) >= -1 || has_long_rank (name) || g_str_has_suffix (name, "_ascend_pt");
}

static int
rank_from_info_in (Walk *walk, const char *dir)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  int found = -1;

  while (listing != NULL && walk->entries < AFG_JOB_MAX_ENTRIES
         && (name = g_dir_read_name (listing)) != NULL)
    {
      gsize len = strlen (name);
      int rank;

      walk->entries++;
      if (!g_str_has_prefix (name, INFO_PREFIX) || !g_str_has_suffix (name, ".json"))
        continue;
      rank = parse_rank (name + strlen (INFO_PREFIX), len - strlen (INFO_PREFIX) - 5);
      if (rank < 0)
        continue;
      if (found >= 0 && found != rank)
        return -2;
      found = rank;
    }
  return found;
}

/* Whether the real path @path is the job folder or below it. */
static gboolean
is_within (const Walk *walk, const char *path)
{
  gsize len = strlen (walk->root);

  return strncmp (path, walk->root, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

/* Beside the DB, else in the parent `*_ascend_pt` folder (torch_npu's
 * layout) when it is in the job folder, whichever way the folder was
 * named (a relative path too). */
static int
rank_from_info (Walk *walk, const char *db_dir)
{
  g_autofree char *parent = g_path_get_dirname (db_dir);
  g_autofree char *parent_name = g_path_get_basename (parent);
  g_autofree char *real_parent = NULL;
  int rank = rank_from_info_in (walk, db_dir);

  if (rank != -1 || !g_str_has_suffix (parent_name, PT_SUFFIX))
    return rank;
  real_parent = realpath (parent, NULL);
  return real_parent != NULL && is_within (walk, real_parent) ? rank_from_info_in (walk, parent) : rank;
}

/* torch_npu's {host}_{pid}_{YYYYMMDDHHMMSSmmm}_ascend_pt: the stamp, else 0. */
static gint64
stamp_from_dir_name (const char *name)
{
  gsize len = strlen (name);
  gsize tail = strlen (PT_SUFFIX);
  const char *digits;
  gint64 value = 0;

  if (!g_str_has_suffix (name, PT_SUFFIX) || len < tail + STAMP_DIGITS + 1)
    return 0;
  digits = name + len - tail - STAMP_DIGITS;
  if (digits[-1] != '_')
    return 0;
  for (int i = 0; i < STAMP_DIGITS; i++)
    {
      if (!g_ascii_isdigit (digits[i]))
        return 0;
      value = value * 10 + (digits[i] - '0');
    }
  return value;
}

gboolean
afg_job_rank_is_newer (const AfgJobRank *a, const AfgJobRank *b)
{
  if (a->stamp > 0 && b->stamp > 0 && a->stamp != b->stamp)
    return a->stamp > b->stamp;
  if (a->mtime != b->mtime)
    return a->mtime > b->mtime;
  return strcmp (a->path, b->path) > 0;
}

char *
afg_job_rank_describe_duplicate (int rank, const char *kept, const char *dropped)
{
  g_autofree char *kept_shown = afg_format_path (kept);
  g_autofree char *dropped_shown = afg_format_path (dropped);

  return g_strdup_printf (_("rank %d is in both %s and %s; using the newer, %s"), rank, dropped_shown, kept_shown,
                          kept_shown);
}

char *
afg_job_describe_too_many (guint n, int first_dropped)
{
  return g_strdup_printf (_("%u ranks found; only the first %d are read (ranks from %d on are ignored)"),
                          n, AFG_JOB_MAX_RANKS, first_dropped);
}

static void
add_rank (Walk *walk, AfgJobRank *found)
{
  AfgJobRank *other = g_hash_table_lookup (walk->by_rank, GINT_TO_POINTER (found->rank));
  AfgJobRank *kept, *dropped;

  if (other == NULL)
    {
      g_hash_table_insert (walk->by_rank, GINT_TO_POINTER (found->rank), found);
      return;
    }
  kept = afg_job_rank_is_newer (found, other) ? found : other;
  dropped = kept == found ? other : found;
  g_ptr_array_add (walk->warnings, afg_job_rank_describe_duplicate (found->rank, kept->path, dropped->path));
  /* The hash table frees the value it replaces. */
  if (kept == found)
    g_hash_table_insert (walk->by_rank, GINT_TO_POINTER (found->rank), found);
  else
    job_rank_free (found);
}

static char *
visit_key (const struct stat *st)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT, (guint64) st->st_dev, (guint64) st->st_ino);
}

static gboolean
was_visited (const Walk *walk, const struct stat *st)
{
  g_autofree char *key = visit_key (st);

  return g_hash_table_contains (walk->seen, key);
}

static gboolean
first_visit (Walk *walk, const struct stat *st)
{
  if (was_visited (walk, st))
    return FALSE;
  g_hash_table_add (walk->seen, visit_key (st));
  return TRUE;
}

/* To the nanosecond: files written in one second differ. */
static gint64
mtime_ns (const struct stat *st)
{
  return (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
}

static void
found_db (Walk *walk, const char *dir, const char *path, int rank, const struct stat *st,
          gint64 stamp)
{
  AfgJobRank *found;

  /* A second way to a DB already found (a link to it) is that DB. */
  if (!first_visit (walk, st))
    return;
  if (rank == -1)
    {
      rank = rank_from_info (walk, dir);
      if (rank < 0)
        {
          warn (walk, path, no_rank_reason (rank));
          rank = -1;
        }
    }
  found = g_new0 (AfgJobRank, 1);
  found->rank = rank;
  found->path = g_strdup (path);
  found->stamp = stamp;
  found->mtime = mtime_ns (st);
  found->bytes = st->st_size;
  add_rank (walk, found);
}

/* lstat, and for a symlink the target's stat when it stays in the folder.
 * FALSE for an entry to skip. */
static gboolean
stat_entry (Walk *walk, const char *path, struct stat *st, gboolean follow)
{
  g_autofree char *target = NULL;

  if (g_lstat (path, st) != 0)
    return FALSE;
  if (!S_ISLNK (st->st_mode))
    return TRUE;
  if (!follow)
    return TRUE;
  target = realpath (path, NULL);
  if (target == NULL)
    {
      if (names_a_rank (path))
        warn (walk, path, _("a symbolic link that leads nowhere; skipped"));
      return FALSE;
    }
  if (!is_within (walk, target))
    {
      warn (walk, path, _("a symbolic link out of the folder; not followed"));
      return FALSE;
    }
  return g_stat (target, st) == 0;
}

/* @follow: a symbolic link is followed (else put off to the end). */
static void
walk_entry (Walk *walk, const char *dir, const char *name, int depth, gint64 stamp, gboolean follow)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  struct stat st;
  int rank;

  if (!stat_entry (walk, path, &st, follow))
    return;
  if (S_ISLNK (st.st_mode))
    {
      Link *link = g_new (Link, 1);

      *link = (Link) { g_strdup (dir), g_strdup (name), depth, stamp };
      g_queue_push_tail (&walk->links, link);
      return;
    }
  rank = rank_from_db_name (name);
  if ((rank >= -1 || has_long_rank (name)) && !S_ISREG (st.st_mode))
    warn (walk, path, S_ISDIR (st.st_mode) ? _("a folder named like a profiler DB; not read as one")
                                            : _("named like a profiler DB but not a regular file (a fifo, a device"
                                                " or a socket); skipped"));
  else if (rank == -2 && S_ISREG (st.st_mode) && has_long_rank (name))
    warn (walk, path, _("a rank of 10 digits or more; skipped"));
  if (S_ISDIR (st.st_mode))
    {
      gint64 own = stamp_from_dir_name (name);

      /* A link back to a folder already searched leaves nothing unsearched. */
      if (depth >= AFG_JOB_MAX_DEPTH && walk->too_deep == NULL && !was_visited (walk, &st))
        walk->too_deep = g_steal_pointer (&path);
      else if (depth < AFG_JOB_MAX_DEPTH && first_visit (walk, &st))
        walk_dir (walk, path, depth + 1, own > 0 ? own : stamp);
      return;
    }
  if (S_ISREG (st.st_mode) && rank >= -1)
    found_db (walk, dir, path, rank, &st, stamp);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The entries in byte order, whatever order the file system lists them
 * in: the same folder is walked the same way everywhere. */
static void
walk_dir (Walk *walk, const char *dir, int depth, gint64 stamp)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = g_dir_open (dir, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (listing == NULL)
    {
      warn (walk, dir, _("cannot be read; skipped"));
      return;
    }
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      if (++walk->entries > AFG_JOB_MAX_ENTRIES)
        {
          walk->exhausted = TRUE;
          break;
        }
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    walk_entry (walk, dir, g_ptr_array_index (names, i), depth, stamp, FALSE);
}

/* The links put off, in the order met; a folder they lead to may add more. */
static void
walk_links (Walk *walk)
{
  Link *link;

  while ((link = g_queue_pop_head (&walk->links)) != NULL)
    {
      walk_entry (walk, link->dir, link->name, link->depth, link->stamp, TRUE);
      link_free (link);
    }
}

static int
compare_ranks (gconstpointer a, gconstpointer b)
{
  const AfgJobRank *x = *(AfgJobRank * const *) a;
  const AfgJobRank *y = *(AfgJobRank * const *) b;

  return (x->rank > y->rank) - (x->rank < y->rank);
}

static GPtrArray *
sorted_ranks (Walk *walk)
{
  GPtrArray *ranks = g_ptr_array_new_with_free_func (job_rank_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, walk->by_rank);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (ranks, value);
      g_hash_table_iter_steal (&iter);
    }
  g_ptr_array_sort (ranks, compare_ranks);
  if (ranks->len > AFG_JOB_MAX_RANKS)
    {
      const AfgJobRank *first_dropped = g_ptr_array_index (ranks, AFG_JOB_MAX_RANKS);

      g_ptr_array_add (walk->warnings, afg_job_describe_too_many (ranks->len, first_dropped->rank));
      g_ptr_array_set_size (ranks, AFG_JOB_MAX_RANKS);
    }
  return ranks;
}

gboolean
afg_job_folder_is_folder (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_DIR);
}

static void
walk_clear (Walk *walk)
{
  g_free (walk->root);
  g_free (walk->too_deep);
  g_queue_clear_full (&walk->links, (GDestroyNotify) link_free);
  g_hash_table_unref (walk->seen);
  g_hash_table_unref (walk->by_rank);
  if (walk->warnings != NULL)
    g_ptr_array_unref (walk->warnings);
}

AfgJobFolder *
afg_job_folder_discover (const char *dir, GError **error)
{
  Walk walk = { 0 };
  AfgJobFolder *self;
  struct stat st;

  walk.root = realpath (dir, NULL);
  if (walk.root == NULL || g_stat (walk.root, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_free (walk.root);
      afg_error_set_path (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NOT_A_FOLDER, dir,
                          _("not a readable folder"));
      return NULL;
    }
  walk.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  walk.by_rank = g_hash_table_new_full (NULL, NULL, NULL, job_rank_free);
  walk.warnings = g_ptr_array_new_with_free_func (g_free);
  first_visit (&walk, &st);
  walk_dir (&walk, dir, 0, stamp_from_dir_name (walk.root));
  walk_links (&walk);
  if (walk.exhausted)
    warn (&walk, dir, _("more than 200000 entries; the search stopped there"));
  if (walk.too_deep != NULL)
    warn (&walk, walk.too_deep, _("folders more than 6 levels deep are not searched (this one and any others)"));

  self = g_new0 (AfgJobFolder, 1);
  self->ranks = sorted_ranks (&walk);
  self->warnings = g_steal_pointer (&walk.warnings);
  walk_clear (&walk);
  if (self->ranks->len == 0)
    {
      afg_job_folder_free (self);
      afg_error_set_path (error, AFG_JOB_ERROR, AFG_JOB_ERROR_NO_PROFILER_DB, dir,
                          _("no ascend_pytorch_profiler_{rank}.db in this folder"));
      return NULL;
    }
  return self;
}

/* The stamp discovery gives @db: its nearest folder's that has one, up to
 * @root (the whole path without one). */
static gint64
stamp_above (const char *db, const char *root)
{
  g_autofree char *top = root != NULL ? g_canonicalize_filename (root, NULL) : NULL;
  g_autofree char *dir = g_path_get_dirname (db);
  char *at = g_canonicalize_filename (dir, NULL);
  gint64 stamp = 0;

  for (;;)
    {
      g_autofree char *name = g_path_get_basename (at);
      char *up;

      stamp = stamp_from_dir_name (name);
      if (stamp > 0 || (top != NULL && strcmp (at, top) == 0))
        break;
      up = g_path_get_dirname (at);
      if (strcmp (up, at) == 0)
        {
          g_free (up);
          break;
        }
      g_free (at);
      at = up;
    }
  g_free (at);
  return stamp;
}

AfgJobFolder *
afg_job_folder_new_single (const char *db, const char *root)
{
  Walk walk = { 0 };
  AfgJobFolder *self = g_new0 (AfgJobFolder, 1);
  g_autofree char *name = g_path_get_basename (db);
  g_autofree char *dir = g_path_get_dirname (db);
  AfgJobRank *found = g_new0 (AfgJobRank, 1);
  struct stat st;
  int rank = rank_from_db_name (name);

  walk.root = root != NULL ? realpath (root, NULL) : NULL;
  walk.root = walk.root != NULL ? walk.root : g_strdup (root != NULL ? root : "");
  walk.warnings = g_ptr_array_new_with_free_func (g_free);
  if (rank < 0)
    {
      rank = rank_from_info (&walk, dir);
      if (rank < 0)
        warn (&walk, db, no_rank_reason (rank));
    }
  found->rank = MAX (rank, -1);
  found->path = g_strdup (db);
  found->stamp = stamp_above (db, root);
  if (g_stat (db, &st) == 0)
    {
      found->mtime = mtime_ns (&st);
      found->bytes = st.st_size;
    }
  self->ranks = g_ptr_array_new_with_free_func (job_rank_free);
  g_ptr_array_add (self->ranks, found);
  self->warnings = g_steal_pointer (&walk.warnings);
  g_free (walk.root);
  return self;
}

AfgJobFolder *
afg_job_folder_copy (const AfgJobFolder *self)
{
  AfgJobFolder *copy = g_new0 (AfgJobFolder, 1);

  g_return_val_if_fail (self != NULL, NULL);
  copy->ranks = g_ptr_array_new_full (self->ranks->len, job_rank_free);
  for (guint i = 0; i < self->ranks->len; i++)
    {
      AfgJobRank *rank = g_memdup2 (g_ptr_array_index (self->ranks, i), sizeof (AfgJobRank));

      rank->path = g_strdup (rank->path);
      g_ptr_array_add (copy->ranks, rank);
    }
  copy->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->warnings->len; i++)
    g_ptr_array_add (copy->warnings, g_strdup (g_ptr_array_index (self->warnings, i)));
  return copy;
}

void
afg_job_folder_free (AfgJobFolder *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->ranks);
  g_ptr_array_unref (self->warnings);
  g_free (self);
}

const char *
afg_job_error_get_hint (const GError *error)
{
  if (error == NULL || error->domain != AFG_JOB_ERROR)
    return NULL;
  if (error->code == AFG_JOB_ERROR_NO_PROFILER_DB)
    return _("searched 6 levels deep for torch_npu's {name}_ascend_pt/ASCEND_PROFILER_OUTPUT/"
             "ascend_pytorch_profiler_{rank}.db; pass the job's profiler output folder");
  return _("pass a folder or an ascend_pytorch_profiler_{rank}.db file");
}
