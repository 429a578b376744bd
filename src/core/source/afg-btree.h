/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* An SQLite database file read directly, without SQLite: its header and
 * the pages of its table b-trees (https://www.sqlite.org/fileformat2.html).
 * Read-only, with pread; safe to share between threads. Every check that
 * fails makes the caller fall back to SQLite, which then says what it
 * says about the file. */
typedef struct _AfgBtree AfgBtree;

#define AFG_BTREE_MAX_DEPTH 20

/* NULL when the file cannot be read this way (not UTF-8, a header SQLite
 * would reject or that this reader does not know, unreadable). Reads a
 * duplicate of @fd: the very file the caller opened, never one moved to
 * its path since. */
AfgBtree *afg_btree_open_fd          (int             fd);
void      afg_btree_free             (AfgBtree       *self);
guint32   afg_btree_get_page_size    (const AfgBtree *self);
guint32   afg_btree_get_n_pages      (const AfgBtree *self);
/* The page size less the reserved bytes at the end of every page. */
guint32   afg_btree_get_usable_size  (const AfgBtree *self);
/* Reads @n pages from page @first (numbered from 1) into @buf. */
gboolean  afg_btree_read_pages       (const AfgBtree *self,
                                      guint32         first,
                                      guint           n,
                                      guint8         *buf);
/* Whether SQLite finds @next after overflow page @pgno too: in an
 * auto-vacuum file it takes the page after @pgno from the pointer map when
 * it skips @pgno, if the map names the next page in order as @pgno's
 * successor. FALSE when the map and @pgno disagree (or the map cannot be
 * read): the file is then read with SQLite. */
gboolean  afg_btree_overflow_next_agrees (const AfgBtree *self,
                                          guint32         pgno,
                                          guint32         next);
/* A loop in the file's pages (an overflow chain that comes back) makes
 * every later read of it go through SQLite: the whole file is suspect.
 * Threads may call these at once. */
void      afg_btree_mark_damaged     (const AfgBtree *self);
gboolean  afg_btree_is_damaged       (const AfgBtree *self);
/* The leaf pages of the table b-tree at @root in key order, or NULL when
 * the interior pages are inconsistent. Leaves are not read here. */
GArray   *afg_btree_list_leaves      (const AfgBtree *self,
                                      guint32         root);

/* Where page @pgno's b-tree header starts: page 1 holds the file header. */
static inline guint
afg_btree_header_offset (guint32 pgno)
{
  return pgno == 1 ? 100 : 0;
}

/* The most cells a page may hold: SQLite calls a page with more corrupt,
 * so the direct read must not take one either. */
static inline guint
afg_btree_max_cells (guint32 page_size)
{
  return (page_size - 8) / 6;
}

static inline guint32
afg_btree_get2 (const guint8 *p)
{
  return (guint32) p[0] << 8 | p[1];
}

static inline guint32
afg_btree_get4 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* A varint of at most 9 bytes that must end before @end; returns its
 * length, 0 when it overruns. */
static inline guint
afg_btree_varint (const guint8 *p, const guint8 *end, guint64 *out)
{
  guint64 v = 0;

  for (guint i = 0; i < 8; i++)
    {
      if (p + i >= end)
        return 0;
      v = v << 7 | (p[i] & 0x7f);
      if (p[i] < 0x80)
        {
          *out = v;
          return i + 1;
        }
    }
  if (p + 8 >= end)
    return 0;
  *out = v << 8 | p[8];
  return 9;
}

G_END_DECLS
