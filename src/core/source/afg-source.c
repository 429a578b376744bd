/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-source"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "afg-error.h"
#include "afg-flat-dir.h"
#include "afg-source.h"

#define MAX_FILE_BYTES (G_GUINT64_CONSTANT (10) * 1024 * 1024 * 1024)
#define SQLITE_MAGIC "SQLite format 3"

static const char * const required_columns[] = { "startNs", "endNs", "globalTid", "name" };
/* A column may take any of these names, and then hides the real rowid. */
static const char * const rowid_aliases[] = { "rowid", "_rowid_", "oid" };

static gboolean
fail (GError **error, AfgLoadError code, const char *path, const char *reason)
{
  return afg_error_set_path (error, AFG_LOAD_ERROR, code, path, reason);
}

static gboolean
check_file (AfgSource *source, const char *path, guint8 header[100], GError **error)
{
  struct stat st;
  gssize n = 0;
  int fd;

  if (g_stat (path, &st) != 0)
    return fail (error, errno == EACCES ? AFG_LOAD_ERROR_UNREADABLE : AFG_LOAD_ERROR_NOT_FOUND,
                 path, errno == EACCES ? _("permission denied") : _("no such file"));
  if (!S_ISREG (st.st_mode))
    return fail (error, AFG_LOAD_ERROR_NOT_REGULAR, path,
                 S_ISDIR (st.st_mode) ? _("is a directory, not a database file")
                                      : _("is not a regular file"));
  if ((guint64) st.st_size > MAX_FILE_BYTES)
    return fail (error, AFG_LOAD_ERROR_TOO_LARGE, path, _("file is larger than 10 GiB"));
  source->bytes = st.st_size;

  /* O_NONBLOCK: a fifo swapped in after the stat must not block the open. */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0)
    return fail (error, AFG_LOAD_ERROR_UNREADABLE, path, _("cannot be read: permission denied"));
  source->fd = fd;
  if (fstat (fd, &source->opened) != 0 || !S_ISREG (source->opened.st_mode))
    return fail (error, AFG_LOAD_ERROR_NOT_REGULAR, path, _("is not a regular file"));
  memset (header, 0, 100);
  while (n < 100)
    {
      gssize r = read (fd, header + n, 100 - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += r;
    }
  if (n < 16 || memcmp (header, SQLITE_MAGIC, 16) != 0)
    return fail (error, AFG_LOAD_ERROR_NOT_SQLITE, path, _("not an SQLite database"));
  return TRUE;
}

static char *
file_uri (const char *path, const char *query)
{
  g_autofree char *abs = g_canonicalize_filename (path, NULL);
  GString *uri = g_string_new ("file:");

  for (const char *p = abs; *p; p++)
    {
      if (g_ascii_isalnum (*p) || strchr ("/._-~", *p) != NULL)
        g_string_append_c (uri, *p);
      else
        g_string_append_printf (uri, "%%%02X", (guint8) *p);
    }
  g_string_append (uri, query);
  return g_string_free (uri, FALSE);
}

/* The files beside the DB that may hold state the DB file alone lacks:
 * a non-empty -wal (committed rows) or -journal (the pages to restore
 * after a transaction that never finished). SQLite looks for both,
 * whatever mode the header (bytes 18-19) names: a hot -journal is rolled
 * back first, then a -wal is read (a rollback-mode header is then taken
 * as WAL mode). Their bytes in all go to @bytes; FALSE when there are
 * none. */
static const char * const sidecars[] = { "-journal", "-wal" };

static gboolean
has_sidecar (const char *path, gboolean present[G_N_ELEMENTS (sidecars)], guint64 *bytes)
{
  gboolean any = FALSE;

  *bytes = 0;
  for (guint i = 0; i < G_N_ELEMENTS (sidecars); i++)
    {
      g_autofree char *name = g_strconcat (path, sidecars[i], NULL);
      struct stat st;

      present[i] = g_stat (name, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 0;
      if (present[i])
        *bytes += (guint64) st.st_size, any = TRUE;
    }
  return any;
}

static gboolean
same_stat (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size
         && a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* The path still names the file opened first, unchanged since (device,
 * inode, size, time of change). */
static gboolean
path_still_opened (const AfgSource *source)
{
  struct stat now;

  return g_stat (source->path, &now) == 0 && same_stat (&now, &source->opened)
         && fstat (source->fd, &now) == 0 && same_stat (&now, &source->opened);
}

static gboolean
copy_file (const char *from, const char *to, GCancellable *cancellable, GError **error)
{
  g_autoptr(GFile) src = g_file_new_for_path (from);
  g_autoptr(GFile) dst = g_file_new_for_path (to);

  return g_file_copy (src, dst, G_FILE_COPY_NONE, cancellable, NULL, NULL, error);
}

/* immutable=1 never creates -shm/-wal files and never writes, but ignores
 * a -wal or hot -journal beside the DB. With one of those, SQLite must
 * replay it: it does so on a private copy of both, opened writable. */
static gboolean
copy_one (const char *from, const char *to, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local_error = NULL;

  /* What the user can mend differs: the profile's files, or the room in
   * the temporary folder. */
  if (g_access (from, R_OK) != 0)
    return fail (error, AFG_LOAD_ERROR_UNREADABLE, from, g_strerror (errno));
  if (copy_file (from, to, cancellable, &local_error))
    return TRUE;
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return fail (error, AFG_LOAD_ERROR_TEMP_COPY, from, local_error->message);
}

static gboolean
choose_uri (AfgSource *source, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *copy = NULL;
  gboolean present[G_N_ELEMENTS (sidecars)];
  guint64 extra = 0;

  if (!has_sidecar (path, present, &extra))
    {
      source->uri = file_uri (path, "?immutable=1");
      return TRUE;
    }
  if (extra > MAX_FILE_BYTES - MIN (source->bytes, MAX_FILE_BYTES))
    return fail (error, AFG_LOAD_ERROR_TOO_LARGE, path, _("file and its -wal or -journal are larger than 10 GiB"));
  source->tmp_dir = g_dir_make_tmp ("ascend-flamegraph-XXXXXX", &local_error);
  if (source->tmp_dir == NULL)
    return fail (error, AFG_LOAD_ERROR_TEMP_COPY, path, local_error->message);
  copy = g_build_filename (source->tmp_dir, "profile.db", NULL);
  if (!copy_one (path, copy, cancellable, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (sidecars); i++)
    {
      g_autofree char *from = g_strconcat (path, sidecars[i], NULL);
      g_autofree char *to = g_strconcat (copy, sidecars[i], NULL);

      if (present[i] && !copy_one (from, to, cancellable, error))
        return FALSE;
    }
  if (!path_still_opened (source))
    return fail (error, AFG_LOAD_ERROR_CORRUPT, path, _("the file was replaced or changed while it was being read"));
  source->uri = file_uri (copy, "");
  source->writable_copy = TRUE;
  return TRUE;
}

/* No mmap: it would be faster, but every mapped page of a 10 GiB file
 * would count in our resident memory. cell_size_check: without it SQLite
 * reads a cell whose offset runs past its page's end from whatever
 * memory follows the page, so a damaged table could give other rows from
 * one query plan (a full scan, two rowid ranges) or one load to the
 * next; with it such a page is SQLITE_CORRUPT, always. It comes first,
 * as cache_size reads the schema. That read's error is the connection's:
 * a later statement would find the schema half read, and say so in other
 * words from one load to the next. */
static int
harden (sqlite3 *db)
{
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_limit (db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, 64 * 1024 * 1024);
  return sqlite3_exec (db, "PRAGMA cell_size_check=ON; PRAGMA query_only=1; PRAGMA cache_size=-2048;"
                           "PRAGMA temp_store=MEMORY; PRAGMA mmap_size=0;", NULL, NULL, NULL);
}

static gint sqlite_only = -1;  /* unset */
void (*afg_source_test_hook) (const char *path);

void
afg_source_set_sqlite_only (gboolean only)
{
  g_atomic_int_set (&sqlite_only, !!only);
}

gboolean
afg_source_get_sqlite_only (void)
{
  if (g_atomic_int_get (&sqlite_only) < 0)
    g_atomic_int_compare_and_exchange (&sqlite_only, -1, g_strcmp0 (g_getenv ("AFG_SQLITE_ONLY"), "1") == 0);
  return g_atomic_int_get (&sqlite_only);
}

void
afg_source_set_error (const AfgSource *source, sqlite3 *db, int rc, GError **error)
{
  AfgLoadError code = AFG_LOAD_ERROR_CORRUPT;
  /* The connection's own message only when it is of this error: @rc may
   * come from the direct reader, or other statements may have run on the
   * connection since ("not an error" is no reason to give). */
  const char *reason = db != NULL && (sqlite3_errcode (db) & 0xff) == (rc & 0xff)
                       ? sqlite3_errmsg (db) : sqlite3_errstr (rc);

  if (rc == SQLITE_NOTADB)
    code = AFG_LOAD_ERROR_NOT_SQLITE;
  else if (rc == SQLITE_CANTOPEN || rc == SQLITE_PERM || rc == SQLITE_AUTH)
    code = AFG_LOAD_ERROR_OPEN_FAILED;
  afg_error_set_path (error, AFG_LOAD_ERROR, code, source->path, reason);
}

/* Every connection opens the path again. It reads the file the checks
 * were made on when the path still names that file (device, inode, size
 * and time of change unchanged since the first open) and SQLite says its
 * own descriptor is of the inode the path names now; else a file moved
 * in meanwhile (mv, rsync) would be read with the first file's schema
 * and root pages. */
static gboolean
connection_sees_source (const AfgSource *source, sqlite3 *db)
{
  int moved = 1;

  if (source->writable_copy)
    return TRUE;  /* a private copy nobody else renames */
  return sqlite3_file_control (db, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && !moved
         && path_still_opened (source);
}

sqlite3 *
afg_source_connect (const AfgSource *source, GError **error)
{
  sqlite3 *db = NULL;
  int rc;

  rc = sqlite3_open_v2 (source->uri, &db,
                        (source->writable_copy ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY)
                        | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, NULL);
  if (rc == SQLITE_OK)
    rc = harden (db);
  if (rc != SQLITE_OK)
    {
      afg_source_set_error (source, db, rc, error);
      sqlite3_close (db);
      return NULL;
    }
  if (!connection_sees_source (source, db))
    {
      fail (error, AFG_LOAD_ERROR_CORRUPT, source->path, _("the file was replaced or changed while it was being read"));
      sqlite3_close (db);
      return NULL;
    }
  return db;
}

/* Returns "table", "view", … for a schema object, or NULL when absent. */
static char *
object_type (sqlite3 *db, const char *name, int *rc)
{
  sqlite3_stmt *stmt = NULL;
  char *type = NULL;

  *rc = sqlite3_prepare_v2 (db, "SELECT type FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE"
                                " AND type IN ('table', 'view') ORDER BY type LIMIT 1",
                            -1, &stmt, NULL);
  if (*rc != SQLITE_OK)
    return NULL;
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  *rc = sqlite3_step (stmt);
  if (*rc == SQLITE_ROW)
    type = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  *rc = sqlite3_finalize (stmt);
  return type;
}

/* TRUE when @sql, given @table as ?1, returns a row. */
static gboolean
schema_has (sqlite3 *db, const char *sql, const char *table)
{
  sqlite3_stmt *stmt = NULL;
  gboolean found = FALSE;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      found = sqlite3_step (stmt) == SQLITE_ROW;
    }
  sqlite3_finalize (stmt);
  return found;
}

/* Virtual tables run module code (FTS, R*Tree…) on a hostile file's data. */
static gboolean
is_virtual (sqlite3 *db, const char *table)
{
  return schema_has (db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1"
                         " COLLATE NOCASE AND sql LIKE 'CREATE VIRTUAL%'", table);
}

static gboolean
has_trigger (sqlite3 *db, const char *table)
{
  return schema_has (db, "SELECT 1 FROM sqlite_schema WHERE type = 'trigger'"
                         " AND tbl_name = ?1 COLLATE NOCASE", table);
}

static gboolean
check_table (AfgSource *source, sqlite3 *db, const char *table, GError **error)
{
  g_autofree char *type = NULL;
  g_autofree char *reason = NULL;
  int rc;

  type = object_type (db, table, &rc);
  if (rc != SQLITE_OK)
    {
      afg_source_set_error (source, db, rc, error);
      return FALSE;
    }
  if (type == NULL)
    reason = g_strdup_printf (_("table %s is missing"), table);
  else if (is_virtual (db, table))
    {
      reason = g_strdup_printf (_("%s is a virtual table, not a plain profiler table"), table);
      return fail (error, AFG_LOAD_ERROR_NOT_A_TABLE, source->path, reason);
    }
  else if (g_strcmp0 (type, "table") != 0 || has_trigger (db, table))
    {
      reason = g_strdup_printf (_("%s is a view or has triggers, not a plain profiler table"), table);
      return fail (error, AFG_LOAD_ERROR_NOT_A_TABLE, source->path, reason);
    }
  else
    return TRUE;
  return fail (error, AFG_LOAD_ERROR_MISSING_TABLE, source->path, reason);
}

gboolean
afg_source_has_plain_table (sqlite3 *db, const char *table)
{
  g_autofree char *type = NULL;
  int rc;

  type = object_type (db, table, &rc);
  return rc == SQLITE_OK && g_strcmp0 (type, "table") == 0
         && !is_virtual (db, table) && !has_trigger (db, table);
}

gboolean
afg_source_has_object (sqlite3 *db, const char *name)
{
  g_autofree char *type = NULL;
  int rc;

  type = object_type (db, name, &rc);
  return rc == SQLITE_OK && type != NULL;
}

/* A column named like the rowid hides it; a WITHOUT ROWID table has
 * none, and SQLite then refuses to prepare the query. */
const char *
afg_source_rowid_name (sqlite3 *db, const char *table)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", table);

  for (guint i = 0; i < G_N_ELEMENTS (rowid_aliases); i++)
    {
      g_autofree char *column = g_strdup_printf ("SELECT 1 FROM pragma_table_xinfo(?1) WHERE name = '%s'"
                                                 " COLLATE NOCASE", rowid_aliases[i]);
      g_autofree char *probe = g_strdup_printf ("SELECT %s FROM %s LIMIT 0", rowid_aliases[i], quoted);
      sqlite3_stmt *stmt = NULL;
      gboolean real;

      if (schema_has (db, column, table))
        continue;
      real = sqlite3_prepare_v2 (db, probe, -1, &stmt, NULL) == SQLITE_OK;
      sqlite3_finalize (stmt);
      return real ? rowid_aliases[i] : NULL;
    }
  return NULL;
}

/* Without a name for the rowid (columns named rowid, oid and _rowid_;
 * WITHOUT ROWID) no ORDER BY can say it: NOT INDEXED keeps SQLite on the
 * table's own b-tree, which it walks in rowid order (a WITHOUT ROWID
 * table: in its key's), where a covering index would give the index's. */
char *
afg_source_rowid_order (sqlite3 *db, const char *table)
{
  const char *rowid = afg_source_rowid_name (db, table);

  return rowid != NULL ? g_strdup_printf (" ORDER BY %s", rowid) : g_strdup (" NOT INDEXED");
}

static gboolean
check_columns (AfgSource *source, sqlite3 *db, GError **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT name FROM pragma_table_info('PYTORCH_API')", -1, &stmt, NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      if (name != NULL)
        g_hash_table_add (seen, g_ascii_strdown (name, -1));
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      afg_source_set_error (source, db, rc, error);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (required_columns); i++)
    {
      g_autofree char *lower = g_ascii_strdown (required_columns[i], -1);
      if (!g_hash_table_contains (seen, lower))
        {
          g_autofree char *reason = g_strdup_printf (_("table PYTORCH_API has no column %s"),
                                                     required_columns[i]);
          return fail (error, AFG_LOAD_ERROR_MISSING_COLUMN, source->path, reason);
        }
    }
  source->has_type = g_hash_table_contains (seen, "type");
  source->has_connection_id = g_hash_table_contains (seen, "connectionid");
  source->rowid_alias = afg_source_rowid_name (db, "PYTORCH_API");
  return TRUE;
}

static gboolean
check_schema (AfgSource *source, sqlite3 *db, GError **error)
{
  g_autofree char *enum_type = NULL;
  int rc;

  if (!check_table (source, db, "PYTORCH_API", error)
      || !check_table (source, db, "STRING_IDS", error)
      || !check_columns (source, db, error))
    return FALSE;
  enum_type = object_type (db, "ENUM_API_TYPE", &rc);
  /* A virtual ENUM_API_TYPE would run module code: treat it as missing. */
  source->has_enum_table = g_strcmp0 (enum_type, "table") == 0 && !is_virtual (db, "ENUM_API_TYPE");
  return TRUE;
}

gboolean
afg_source_open (AfgSource *source, const char *path, GCancellable *cancellable, sqlite3 **db,
                 GError **error)
{
  guint8 header[100];

  memset (source, 0, sizeof *source);
  source->fd = -1;
  source->path = g_strdup (path);
  if (!check_file (source, path, header, error)
      || !choose_uri (source, path, cancellable, error))
    return FALSE;
  *db = afg_source_connect (source, error);
  if (*db == NULL)
    return FALSE;
  if (!check_schema (source, *db, error))
    {
      g_clear_pointer (db, sqlite3_close);
      return FALSE;
    }
  if (afg_source_test_hook != NULL)
    afg_source_test_hook (path);
  /* The descriptor the checks were made on, so never another file; the
   * connection proves again that SQLite read that one too. A -wal or
   * -journal makes the file alone stale: SQLite replays it. */
  if (!connection_sees_source (source, *db))
    {
      g_clear_pointer (db, sqlite3_close);
      return fail (error, AFG_LOAD_ERROR_CORRUPT, path, _("the file was replaced or changed while it was being read"));
    }
  if (!source->writable_copy && !afg_source_get_sqlite_only ())
    source->btree = afg_btree_open_fd (source->fd);
  return TRUE;
}

void
afg_source_clear (AfgSource *source)
{
  if (source->tmp_dir != NULL)
    afg_flat_dir_remove (source->tmp_dir);
  g_clear_pointer (&source->tmp_dir, g_free);
  g_clear_pointer (&source->path, g_free);
  g_clear_pointer (&source->uri, g_free);
  g_clear_pointer (&source->btree, afg_btree_free);
  if (source->fd >= 0)
    close (source->fd);
  source->fd = -1;
}

static const gint64 fallback_types[] = { 50001, 50002, 50003 };
static const char * const accepted_type_names[] = { "op", "queue", "trace", "python_trace" };

static gboolean
is_accepted_type_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (accepted_type_names); i++)
    if (g_ascii_strcasecmp (name, accepted_type_names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* A handful of ids, scanned linearly per row; DISTINCT and the cap keep a
 * hostile ENUM_API_TYPE from making that scan long. */
int
afg_source_read_api_types (const AfgSource *source, sqlite3 *db, gint64 **out_types, guint *n_types)
{
  g_autoptr(GArray) types = g_array_new (FALSE, FALSE, sizeof (gint64));
  sqlite3_stmt *stmt = NULL;
  int rc = SQLITE_DONE;

  if (!source->has_enum_table)
    g_array_append_vals (types, fallback_types, G_N_ELEMENTS (fallback_types));
  else
    rc = sqlite3_prepare_v2 (db, "SELECT DISTINCT id, name FROM ENUM_API_TYPE"
                                 " WHERE typeof(id) = 'integer' AND typeof(name) = 'text'",
                             -1, &stmt, NULL);
  while (stmt != NULL && rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);

      rc = SQLITE_OK;
      if (types->len < 64 && is_accepted_type_name ((const char *) sqlite3_column_text (stmt, 1)))
        g_array_append_val (types, id);
    }
  sqlite3_finalize (stmt);
  *n_types = types->len;
  *out_types = (gint64 *) g_array_free (g_steal_pointer (&types), FALSE);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
