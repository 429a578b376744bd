/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-btree"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "afg-btree.h"

#define HEADER_BYTES 100
#define PAGE_INTERIOR 0x05
#define PAGE_LEAF 0x0d
#define MIN_USABLE 480
#define ENCODING_UTF8 1

struct _AfgBtree {
  int      fd;
  guint32  page_size;
  guint32  usable;
  guint32  n_pages;
  gboolean auto_vacuum;  /* the file keeps pointer-map pages */
  gint     damaged;      /* atomic: a reader found a loop */
};

static gboolean
read_at (int fd, guint8 *buf, gsize n, guint64 offset)
{
  while (n > 0)
    {
      gssize r = pread (fd, buf, n, (off_t) offset);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return FALSE;
      buf += r;
      n -= (gsize) r;
      offset += (guint64) r;
    }
  return TRUE;
}

/* The checks SQLite makes when it opens a file, and what this reader
 * needs: UTF-8 text, a known format, whole pages. */
static gboolean
parse_header (AfgBtree *self, const guint8 *h, guint64 file_bytes)
{
  guint32 page_size = afg_btree_get2 (h + 16) == 1 ? 65536 : afg_btree_get2 (h + 16);
  guint64 file_pages;
  guint32 n_pages;

  if (memcmp (h, "SQLite format 3", 16) != 0 || page_size < 512 || (page_size & (page_size - 1)) != 0)
    return FALSE;
  if (h[18] < 1 || h[18] > 2 || h[19] < 1 || h[19] > 2 || h[21] != 64 || h[22] != 32 || h[23] != 32)
    return FALSE;
  if (afg_btree_get4 (h + 56) != ENCODING_UTF8 || afg_btree_get4 (h + 44) > 4)
    return FALSE;
  if (file_bytes % page_size != 0 || file_bytes / page_size > G_MAXUINT32)
    return FALSE;
  file_pages = file_bytes / page_size;
  n_pages = afg_btree_get4 (h + 28);
  if (n_pages == 0 || memcmp (h + 24, h + 92, 4) != 0)
    n_pages = (guint32) file_pages;
  if (n_pages > file_pages || n_pages == 0)
    return FALSE;
  self->page_size = page_size;
  self->usable = page_size - h[20];
  self->n_pages = n_pages;
  self->auto_vacuum = afg_btree_get4 (h + 52) != 0;
  return self->usable >= MIN_USABLE;
}

AfgBtree *
afg_btree_open_fd (int fd)
{
  AfgBtree *self = g_new0 (AfgBtree, 1);
  guint8 header[HEADER_BYTES];
  struct stat st;

  self->fd = fcntl (fd, F_DUPFD_CLOEXEC, 0);
  if (self->fd < 0 || fstat (self->fd, &st) != 0 || !S_ISREG (st.st_mode)
      || !read_at (self->fd, header, sizeof header, 0) || !parse_header (self, header, (guint64) st.st_size))
    {
      afg_btree_free (self);
      return NULL;
    }
  return self;
}

void
afg_btree_free (AfgBtree *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_free (self);
}

guint32
afg_btree_get_page_size (const AfgBtree *self)
{
  return self->page_size;
}

guint32
afg_btree_get_n_pages (const AfgBtree *self)
{
  return self->n_pages;
}

guint32
afg_btree_get_usable_size (const AfgBtree *self)
{
  return self->usable;
}

gboolean
afg_btree_read_pages (const AfgBtree *self, guint32 first, guint n, guint8 *buf)
{
  if (first == 0 || n == 0 || first > self->n_pages || n > self->n_pages - first + 1)
    return FALSE;
  return read_at (self->fd, buf, (gsize) n * self->page_size, (guint64) (first - 1) * self->page_size);
}

#define PTRMAP_OVERFLOW2 4

/* The pointer-map page that holds page @pgno's entry (sqlite's
 * ptrmapPageno): one every usable / 5 + 1 pages from page 2. */
static guint32
ptrmap_page (const AfgBtree *self, guint32 pgno)
{
  guint32 per_map = self->usable / 5 + 1;

  return (pgno - 2) / per_map * per_map + 2;
}

gboolean
afg_btree_overflow_next_agrees (const AfgBtree *self, guint32 pgno, guint32 next)
{
  guint32 pending = 0x40000000u / self->page_size + 1;
  guint32 guess = pgno + 1, map;
  g_autofree guint8 *entries = NULL;
  guint at;

  if (!self->auto_vacuum || pgno < 2 || pgno >= self->n_pages)
    return TRUE;
  while (guess <= self->n_pages && (ptrmap_page (self, guess) == guess || guess == pending))
    guess++;
  if (guess > self->n_pages || guess == next)
    return TRUE;
  map = ptrmap_page (self, guess);
  at = 5 * (guess - map - 1);
  entries = g_malloc (self->page_size);
  if (!afg_btree_read_pages (self, map, 1, entries) || at + 5 > self->usable)
    return FALSE;
  return entries[at] != PTRMAP_OVERFLOW2 || afg_btree_get4 (entries + at + 1) != pgno;
}

void
afg_btree_mark_damaged (const AfgBtree *self)
{
  g_atomic_int_set (&((AfgBtree *) self)->damaged, TRUE);
}

gboolean
afg_btree_is_damaged (const AfgBtree *self)
{
  return g_atomic_int_get (&self->damaged);
}

typedef struct {
  const AfgBtree *btree;
  guint8         *seen;    /* a bit per page */
  GArray         *leaves;
} Walk;

static gboolean
mark_seen (Walk *w, guint32 pgno)
{
  guint8 bit = (guint8) (1u << (pgno & 7));

  if (pgno == 0 || pgno > w->btree->n_pages || (w->seen[pgno >> 3] & bit) != 0)
    return FALSE;
  w->seen[pgno >> 3] |= bit;
  return TRUE;
}

static gboolean walk_page (Walk *w, guint32 pgno, guint depth);

/* An interior page's children in key order: the left child of each cell
 * (4 bytes, then the key varint), then the right-most pointer. */
static gboolean
list_children (const AfgBtree *bt, const guint8 *page, guint hoff, guint n_cells, guint32 *children)
{
  guint32 ptrs = hoff + 12, ptrs_end = ptrs + 2 * n_cells;
  guint64 key;

  for (guint i = 0; i < n_cells; i++)
    {
      guint32 at = afg_btree_get2 (page + ptrs + 2 * i);

      if (at < ptrs_end || at + 4 >= bt->usable || afg_btree_varint (page + at + 4, page + bt->usable, &key) == 0)
        return FALSE;
      children[i] = afg_btree_get4 (page + at);
    }
  children[n_cells] = afg_btree_get4 (page + hoff + 8);
  return TRUE;
}

static int
page_type (const AfgBtree *bt, guint32 pgno, guint8 *page)
{
  if (pgno == 0 || pgno > bt->n_pages || !afg_btree_read_pages (bt, pgno, 1, page))
    return -1;
  return page[afg_btree_header_offset (pgno)];
}

/* SQLite's b-trees are balanced: when the first child is a leaf, all
 * are, and they are listed without being read (the cursor checks each
 * leaf's type and cells when it reads it). */
static gboolean
walk_interior (Walk *w, const guint8 *page, guint hoff, guint n_cells, guint depth)
{
  g_autofree guint32 *children = g_new (guint32, n_cells + 1);
  g_autofree guint8 *probe = g_malloc (w->btree->page_size);
  gboolean leaves;

  if (!list_children (w->btree, page, hoff, n_cells, children))
    return FALSE;
  leaves = page_type (w->btree, children[0], probe) == PAGE_LEAF;
  g_clear_pointer (&probe, g_free);
  for (guint i = 0; i <= n_cells; i++)
    {
      if (!leaves)
        {
          if (!walk_page (w, children[i], depth + 1))
            return FALSE;
        }
      else if (depth + 1 >= AFG_BTREE_MAX_DEPTH || !mark_seen (w, children[i]))
        return FALSE;
      else
        g_array_append_val (w->leaves, children[i]);
    }
  return TRUE;
}

/* Pages are marked before they are read: a page reached twice (a loop,
 * or two parents) is an inconsistency. A non-root page without cells is
 * one for SQLite too. */
static gboolean
walk_page (Walk *w, guint32 pgno, guint depth)
{
  const AfgBtree *bt = w->btree;
  guint hoff = afg_btree_header_offset (pgno);
  g_autofree guint8 *page = NULL;
  guint n_cells;
  int type;

  if (depth >= AFG_BTREE_MAX_DEPTH || !mark_seen (w, pgno))
    return FALSE;
  page = g_malloc (bt->page_size);
  if ((type = page_type (bt, pgno, page)) < 0)
    return FALSE;
  n_cells = afg_btree_get2 (page + hoff + 3);
  if (type == PAGE_LEAF)
    {
      g_array_append_val (w->leaves, pgno);  /* the root: the cursor checks it */
      return TRUE;
    }
  if (type != PAGE_INTERIOR || n_cells == 0 || n_cells > afg_btree_max_cells (bt->page_size)
      || hoff + 12 + 2 * n_cells > bt->usable)
    return FALSE;
  return walk_interior (w, page, hoff, n_cells, depth);
}

GArray *
afg_btree_list_leaves (const AfgBtree *self, guint32 root)
{
  g_autofree guint8 *seen = g_malloc0 (self->n_pages / 8 + 1);
  Walk w = { self, seen, g_array_new (FALSE, FALSE, sizeof (guint32)) };

  if (!walk_page (&w, root, 0))
    g_clear_pointer (&w.leaves, g_array_unref);
  return w.leaves;
}
