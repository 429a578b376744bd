/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A growable array for the big ones filled row by row: its buffer comes
 * from afg_huge_alloc(), so that it faults in whole huge pages (GArray's
 * is unaligned, its ends in 4 kB pages), and an append is a compare and
 * a store. Cleared, it is empty and holds nothing, and can grow again. */
typedef struct {
  gpointer data;
  gsize    len;
  gsize    capacity;
  gsize    element_size;
} AfgVec;

void     afg_vec_init  (AfgVec *vec,
                        gsize   element_size,
                        gsize   reserved);
void     afg_vec_clear (AfgVec *vec);
/* Room for one more element (out of line: the buffer doubles). */
void     afg_vec_grow  (AfgVec *vec);
/* Room for @capacity elements in all. */
void     afg_vec_reserve (AfgVec *vec,
                          gsize   capacity);
/* @len elements, the ones added zeroed. */
void     afg_vec_set_len_zeroed (AfgVec *vec,
                                 gsize   len);

/* Moves the elements out, leaving @vec empty (its element size kept). */
static inline AfgVec
afg_vec_steal (AfgVec *vec)
{
  AfgVec taken = *vec;

  vec->data = NULL;
  vec->len = vec->capacity = 0;
  return taken;
}

static inline gpointer
afg_vec_push (AfgVec *vec)
{
  if (G_UNLIKELY (vec->len == vec->capacity))
    afg_vec_grow (vec);
  return (guint8 *) vec->data + vec->element_size * vec->len++;
}

#define AFG_VEC_APPEND(vec, type, value) (*(type *) afg_vec_push (vec) = (value))
#define AFG_VEC_INDEX(vec, type, i)      (((type *) (vec)->data)[i])

G_END_DECLS
