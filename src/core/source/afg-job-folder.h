/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Directories searched below the job folder (the folder itself is level 0). */
#define AFG_JOB_MAX_DEPTH    6
#define AFG_JOB_MAX_RANKS    1024
/* Directory entries read in all before the search stops (hostile trees). */
#define AFG_JOB_MAX_ENTRIES  200000

#define AFG_JOB_ERROR (afg_job_error_quark ())

typedef enum {
  AFG_JOB_ERROR_NOT_A_FOLDER,
  AFG_JOB_ERROR_NO_PROFILER_DB,
  AFG_JOB_ERROR_NO_RANK_READ,   /* none of the job's ranks gave a tree */
} AfgJobError;

typedef struct {
  int     rank;      /* -1 when neither the name nor profiler_info tells it */
  char   *path;      /* the .db, under the job folder */
  gint64  stamp;     /* the folder name's YYYYMMDDHHMMSSmmm, else 0 */
  gint64  mtime;     /* ns since the epoch: files written in one second differ */
  gint64  bytes;     /* the DB's size when found */
} AfgJobRank;

typedef struct {
  GPtrArray *ranks;     /* AfgJobRank *, by rank, one per rank */
  GPtrArray *warnings;  /* char *, translated, one line each */
} AfgJobFolder;

GQuark        afg_job_error_quark      (void);
/* Of two DBs of one rank, is @a the one discovery keeps: the later folder
 * stamp when both have one, else the later mtime, else the later path. */
gboolean      afg_job_rank_is_newer    (const AfgJobRank *a,
                                        const AfgJobRank *b);
/* The warning for two DBs of @rank: which is used, which left out. */
char         *afg_job_rank_describe_duplicate (int         rank,
                                               const char *kept,
                                               const char *dropped);
/* The warning for @n ranks, more than AFG_JOB_MAX_RANKS: the lowest are
 * kept, @first_dropped is the first rank left out. */
char         *afg_job_describe_too_many (guint n,
                                         int   first_dropped);
/* TRUE when @path is a directory (following a symlink given by the user). */
gboolean      afg_job_folder_is_folder (const char   *path);
/* Every ascend_pytorch_profiler[_N].db under @dir; NULL with an error when
 * @dir is not a readable folder or holds no profiler DB. */
AfgJobFolder *afg_job_folder_discover  (const char   *dir,
                                        GError      **error);
/* A job of the one DB @db, its rank told as discovery tells it (the name,
 * else profiler_info beside it or, inside @root when given, one level up),
 * and its stamp and mtime as discovery finds them. */
AfgJobFolder *afg_job_folder_new_single (const char  *db,
                                         const char  *root);
/* The same ranks and warnings: a second load of the job takes its own. */
AfgJobFolder *afg_job_folder_copy      (const AfgJobFolder *self);
void          afg_job_folder_free      (AfgJobFolder *self);
/* A hint for an AFG_JOB_ERROR, or NULL. */
const char   *afg_job_error_get_hint   (const GError *error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgJobFolder, afg_job_folder_free)

G_END_DECLS
