/* SPDX-License-Identifier: MIT */
#define G_LOG_DOMAIN "afg-btree"

#include "config.h"

#include <math.h>
#include <string.h>

#include "afg-btree-cursor.h"
#include "afg-huge.h"

#define PAGE_LEAF 0x0d
#define LEAF_HEADER 8
#define BATCH_BYTES (1024 * 1024)
#define MAX_HEADER 98307                 /* SQLite's limit on a record header */
#define MAX_PAYLOAD (64 * 1024 * 1024)   /* SQLITE_LIMIT_LENGTH as afg-source sets it */

struct _AfgBtreeCursor {
  const AfgBtree     *btree;
  const AfgRecordMap *map;
  guint32             root;
  guint32             usable;
  guint32             page_size;
  const guint32      *leaves;
  guint               n_leaves;
  guint               next_leaf;    /* the first leaf not yet read */
  guint8             *batch;
  guint               batch_capacity;  /* pages */
  guint               batch_len;
  guint               batch_at;     /* the page being read, + 1 */
  const guint8       *page;
  guint               n_cells;
  guint32             ptrs;         /* cell pointer array */
  guint               cell;
  GByteArray         *payload;      /* a payload that spills to overflow pages */
  guint8             *overflow;     /* one overflow page */
  guint8             *seen;         /* a bit per page: the current cell's overflow pages */
  GArray             *seen_list;    /* the bits set in @seen */
  guint64             work;         /* cells and overflow pages read */
};

typedef struct {
  guint   n_columns;
  guint64 types[AFG_RECORD_MAX_COLUMN];
  guint64 offsets[AFG_RECORD_MAX_COLUMN];
} Record;

AfgBtreeCursor *
afg_btree_cursor_new (const AfgBtree *btree, const AfgRecordMap *map, guint32 root, const guint32 *leaves,
                      guint n_leaves)
{
  AfgBtreeCursor *self = g_new0 (AfgBtreeCursor, 1);

  self->btree = btree;
  self->map = map;
  self->root = root;
  self->usable = afg_btree_get_usable_size (btree);
  self->page_size = afg_btree_get_page_size (btree);
  self->leaves = leaves;
  self->n_leaves = n_leaves;
  self->batch_capacity = MAX (BATCH_BYTES / self->page_size, 1);
  self->batch = afg_huge_alloc (self->batch_capacity * self->page_size);
  self->payload = g_byte_array_new ();
  self->overflow = g_malloc (self->page_size);
  self->seen_list = g_array_new (FALSE, FALSE, sizeof (guint32));
  return self;
}

void
afg_btree_cursor_free (AfgBtreeCursor *self)
{
  if (self == NULL)
    return;
  afg_huge_free (self->batch, (gsize) self->batch_capacity * self->page_size);
  g_byte_array_unref (self->payload);
  g_free (self->overflow);
  g_free (self->seen);
  g_array_unref (self->seen_list);
  g_free (self);
}

/* Consecutive page numbers in one pread. */
static gboolean
read_batch (AfgBtreeCursor *self)
{
  guint32 first = self->leaves[self->next_leaf];
  guint n = 1;

  while (n < self->batch_capacity && self->next_leaf + n < self->n_leaves
         && self->leaves[self->next_leaf + n] == first + n)
    n++;
  if (!afg_btree_read_pages (self->btree, first, n, self->batch))
    return FALSE;
  self->next_leaf += n;
  self->batch_len = n;
  self->batch_at = 0;
  return TRUE;
}

static AfgBtreeStep
next_page (AfgBtreeCursor *self)
{
  guint32 pgno;
  guint hoff;

  if (self->batch_at == self->batch_len)
    {
      if (self->next_leaf == self->n_leaves)
        return AFG_BTREE_DONE;
      if (!read_batch (self))
        return AFG_BTREE_FALLBACK;
    }
  pgno = self->leaves[self->next_leaf - self->batch_len + self->batch_at];
  hoff = afg_btree_header_offset (pgno);
  self->page = self->batch + (gsize) self->batch_at++ * self->page_size;
  self->n_cells = afg_btree_get2 (self->page + hoff + 3);
  self->ptrs = hoff + LEAF_HEADER;
  self->cell = 0;
  if (self->page[hoff] != PAGE_LEAF || self->ptrs + 2 * self->n_cells > self->usable
      || self->n_cells > afg_btree_max_cells (self->page_size) || (self->n_cells == 0 && pgno != self->root))
    return AFG_BTREE_FALLBACK;
  return AFG_BTREE_ROW;
}

/* How much of a payload of @size bytes stays on a table leaf page. */
static guint64
local_size (guint32 usable, guint64 size)
{
  guint64 max_local = usable - 35, min_local = (usable - 12) * 32 / 255 - 23;
  guint64 k = min_local + (size - min_local) % (usable - 4);

  if (size <= max_local)
    return size;
  return k <= max_local ? k : min_local;
}

/* The part of the payload read so far (its first @have bytes in
 * @payload), and where its overflow chain goes on. */
typedef struct {
  const guint8 *local;   /* on the page */
  guint64       size;
  guint64       have;
  gboolean      spills;  /* then the bytes read are in self->payload */
  guint32       next;    /* the next overflow page */
} Spill;

static const guint8 *
spill_bytes (const AfgBtreeCursor *self, const Spill *spill)
{
  return spill->spills ? self->payload->data : spill->local;
}

static void
forget_seen (AfgBtreeCursor *self)
{
  for (guint i = 0; i < self->seen_list->len; i++)
    {
      guint32 pgno = g_array_index (self->seen_list, guint32, i);

      self->seen[pgno >> 3] &= (guint8) ~(1u << (pgno & 7));
    }
  g_array_set_size (self->seen_list, 0);
}

/* A chain that comes back to a page is a loop: the file is damaged, and
 * SQLite judges it. The bits set for one cell are cleared after it. */
static gboolean
first_visit (AfgBtreeCursor *self, guint32 pgno)
{
  guint8 bit = (guint8) (1u << (pgno & 7));

  if (pgno == 0 || pgno > afg_btree_get_n_pages (self->btree))
    return FALSE;
  if (self->seen == NULL)
    self->seen = g_malloc0 (afg_btree_get_n_pages (self->btree) / 8 + 1);
  if ((self->seen[pgno >> 3] & bit) != 0)
    {
      afg_btree_mark_damaged (self->btree);
      return FALSE;
    }
  self->seen[pgno >> 3] |= bit;
  g_array_append_val (self->seen_list, pgno);
  return TRUE;
}

/* Follows the overflow chain until the first @want bytes of the payload
 * are in self->payload: SQLite too reads no further than the columns
 * asked for, so a long column after them (or a broken chain there) costs
 * nothing. */
static gboolean
gather_overflow (AfgBtreeCursor *self, Spill *spill, guint64 want)
{
  want = MIN (want, spill->size);
  while (spill->have < want)
    {
      guint64 take = MIN (spill->size - spill->have, (guint64) self->usable - 4);
      guint32 pgno = spill->next;

      if (!first_visit (self, pgno))
        return FALSE;
      if (!afg_btree_read_pages (self->btree, pgno, 1, self->overflow))
        return FALSE;
      self->work++;
      g_byte_array_append (self->payload, self->overflow + 4, (guint) take);
      spill->have += take;
      spill->next = afg_btree_get4 (self->overflow);
      if (spill->have < want && !afg_btree_overflow_next_agrees (self->btree, pgno, spill->next))
        {
          afg_btree_mark_damaged (self->btree);
          return FALSE;
        }
    }
  return TRUE;
}

static guint64
serial_size (guint64 type)
{
  static const guint8 sizes[12] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0, 0, 0 };

  return type < 12 ? sizes[type] : (type - 12) / 2;
}

/* A record's big-endian integer of @n bytes (1, 2, 3, 4, 6 or 8),
 * sign-extended: whole loads and a byte swap, no byte loop. */
static gint64
big_endian (const guint8 *p, guint n)
{
  guint16 v16;
  guint32 v32;
  guint64 v64;

  switch (n)
    {
    case 1:
      return (gint8) p[0];
    case 2:
      memcpy (&v16, p, 2);
      return (gint16) GUINT16_FROM_BE (v16);
    case 3:
      return (gint64) ((gint32) ((guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8) >> 8);
    case 4:
      memcpy (&v32, p, 4);
      return (gint32) GUINT32_FROM_BE (v32);
    case 6:
      memcpy (&v16, p, 2);
      memcpy (&v32, p + 2, 4);
      return (gint64) ((guint64) (gint64) (gint16) GUINT16_FROM_BE (v16) << 32 | GUINT32_FROM_BE (v32));
    default:
      memcpy (&v64, p, 8);
      return (gint64) GUINT64_FROM_BE (v64);
    }
}

/* As SQLite returns it; NaN reads as NULL. */
static void
decode_value (guint64 type, const guint8 *p, gboolean real, AfgValue *out)
{
  static const guint8 int_bytes[7] = { 0, 1, 2, 3, 4, 6, 8 };
  guint64 bits;

  if (type >= 1 && type <= 6)
    *out = (AfgValue) { .type = SQLITE_INTEGER, .i = big_endian (p, int_bytes[type]) };
  else if (type == 8 || type == 9)
    *out = (AfgValue) { .type = SQLITE_INTEGER, .i = type == 9 };
  else if (type == 7)
    {
      bits = (guint64) big_endian (p, 8);
      memcpy (&out->d, &bits, sizeof bits);
      out->type = isnan (out->d) ? SQLITE_NULL : SQLITE_FLOAT;
    }
  else if (type >= 12)
    *out = (AfgValue) { .type = type & 1 ? SQLITE_TEXT : SQLITE_BLOB, .bytes = p, .len = (int) serial_size (type) };
  else
    out->type = SQLITE_NULL;
  if (real && out->type == SQLITE_INTEGER)
    {
      out->d = (double) out->i;
      out->type = SQLITE_FLOAT;
    }
}

/* The serial types of a record's header, and where the first
 * map->n_needed columns start. The header must describe exactly the
 * body, as SQLite checks when it reads the last column, and at least one
 * column: SQLite calls a record of a header size and nothing else
 * corrupt when any column of it is read. */
static gboolean
parse_header (const AfgRecordMap *map, const guint8 *payload, guint64 header, guint64 size, Record *record)
{
  const guint8 *p = payload, *end = payload + header;
  guint64 body = header, type;
  guint n = afg_btree_varint (payload, end, &type);

  record->n_columns = 0;
  for (p += n; p < end; p += n, record->n_columns++)
    {
      if (*p < 0x80)  /* most serial types fit a byte */
        {
          type = *p;
          n = 1;
        }
      else if ((n = afg_btree_varint (p, end, &type)) == 0)
        return FALSE;
      if (type == 10 || type == 11)
        return FALSE;
      if (record->n_columns < map->n_needed)
        {
          record->types[record->n_columns] = type;
          record->offsets[record->n_columns] = body;
        }
      body += serial_size (type);
      if (body > size)
        return FALSE;
    }
  return body == size && record->n_columns > 0;
}

/* How much of the payload holds the columns the map reads. */
static guint64
needed_bytes (const AfgRecordMap *map, const Record *record, guint64 header)
{
  guint k = MIN (record->n_columns, map->n_needed);

  return k == 0 ? header : record->offsets[k - 1] + serial_size (record->types[k - 1]);
}

static AfgBtreeStep
fill_row (const AfgRecordMap *map, const guint8 *payload, const Record *record, AfgRow *row)
{
  for (guint v = 0; v < map->n_values; v++)
    {
      gint c = map->column[v];

      if (c == AFG_RECORD_ROWID)
        row->values[v] = (AfgValue) { .type = SQLITE_INTEGER, .i = row->rowid };
      else if (c == AFG_RECORD_NONE || (guint) c >= record->n_columns)
        {
          if (c >= 0 && !map->default_null[v])
            return AFG_BTREE_FALLBACK;
          row->values[v].type = SQLITE_NULL;
        }
      else
        decode_value (record->types[c], payload + record->offsets[c], map->real[v], &row->values[v]);
    }
  return AFG_BTREE_ROW;
}

/* The header, then the columns read, from the page or, past its local
 * part, from the overflow chain. */
static AfgBtreeStep
decode_record (AfgBtreeCursor *self, Spill *spill, AfgRow *row)
{
  const guint8 *payload = spill_bytes (self, spill);
  Record record;
  guint64 header;
  guint n;

  if ((n = afg_btree_varint (payload, payload + spill->have, &header)) == 0 || header < n || header > spill->size
      || header > MAX_HEADER || !gather_overflow (self, spill, header))
    return AFG_BTREE_FALLBACK;
  if (!parse_header (self->map, spill_bytes (self, spill), header, spill->size, &record)
      || !gather_overflow (self, spill, needed_bytes (self->map, &record, header)))
    return AFG_BTREE_FALLBACK;
  return fill_row (self->map, spill_bytes (self, spill), &record, row);
}

/* A leaf cell: payload size, rowid, the local payload, the first
 * overflow page when it spills. */
static AfgBtreeStep
read_cell (AfgBtreeCursor *self, AfgRow *row)
{
  const guint8 *page = self->page, *end = page + self->usable;
  guint32 at = afg_btree_get2 (page + self->ptrs + 2 * self->cell++);
  guint64 size, rowid, n_local;
  Spill spill;
  guint n, m;

  self->work++;
  if (at < self->ptrs + 2 * self->n_cells || at >= self->usable
      || (n = afg_btree_varint (page + at, end, &size)) == 0
      || (m = afg_btree_varint (page + at + n, end, &rowid)) == 0 || size > MAX_PAYLOAD)
    return AFG_BTREE_FALLBACK;
  at += n + m;
  row->rowid = (gint64) rowid;
  n_local = local_size (self->usable, size);
  if (at + n_local + (n_local < size ? 4 : 0) > self->usable)
    return AFG_BTREE_FALLBACK;
  spill = (Spill) { page + at, size, n_local, n_local < size, 0 };
  if (spill.spills)
    {
      spill.next = afg_btree_get4 (page + at + n_local);
      g_byte_array_set_size (self->payload, 0);
      g_byte_array_append (self->payload, page + at, (guint) n_local);
      forget_seen (self);
    }
  return decode_record (self, &spill, row);
}

AfgBtreeStep
afg_btree_cursor_next (AfgBtreeCursor *self, AfgRow *row)
{
  AfgBtreeStep step;

  while (self->page == NULL || self->cell == self->n_cells)
    if ((step = next_page (self)) != AFG_BTREE_ROW)
      return step;
  return read_cell (self, row);
}

guint64
afg_btree_cursor_get_work (const AfgBtreeCursor *self)
{
  return self->work;
}
