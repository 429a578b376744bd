/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <string.h>

#include "afg-huge.h"
#include "afg-vec.h"

#define FIRST_CAPACITY 16

void
afg_vec_init (AfgVec *vec, gsize element_size, gsize reserved)
{
  vec->element_size = element_size;
  vec->len = 0;
  vec->capacity = MIN (reserved, G_MAXSIZE / element_size);
  vec->data = vec->capacity > 0 ? afg_huge_alloc (vec->capacity * element_size) : NULL;
}

void
afg_vec_clear (AfgVec *vec)
{
  afg_huge_free (vec->data, vec->capacity * vec->element_size);
  vec->data = NULL;
  vec->len = vec->capacity = 0;
}

void
afg_vec_reserve (AfgVec *vec, gsize capacity)
{
  gpointer data;

  if (capacity <= vec->capacity)
    return;
  if (capacity > G_MAXSIZE / 2 / vec->element_size)
    g_error ("afg_vec_reserve: %" G_GSIZE_FORMAT " elements do not fit in memory", capacity);
  data = afg_huge_alloc (capacity * vec->element_size);
  if (vec->len > 0)
    memcpy (data, vec->data, vec->len * vec->element_size);
  afg_huge_free (vec->data, vec->capacity * vec->element_size);
  vec->data = data;
  vec->capacity = capacity;
}

void
afg_vec_grow (AfgVec *vec)
{
  afg_vec_reserve (vec, MAX (vec->capacity, FIRST_CAPACITY / 2) * 2);
}

void
afg_vec_set_len_zeroed (AfgVec *vec, gsize len)
{
  if (len > vec->capacity)
    afg_vec_reserve (vec, MAX (len, vec->capacity * 2));
  if (len > vec->len)
    memset ((guint8 *) vec->data + vec->len * vec->element_size, 0, (len - vec->len) * vec->element_size);
  vec->len = len;
}
