/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

/* Narrows [@lo, @hi) to the first index whose @before is FALSE, where
 * @before, an expression of @mid (declared here, of @type), is TRUE on a
 * prefix of the range and FALSE after it: @lo ends as that index (@hi
 * when it is TRUE everywhere). The one binary search of the tree:
 * written out once, with its overflow-safe midpoint and its off-by-one
 * decided once. A macro rather than a function taking a callback: the
 * hit tests and the chart bisect per pixel and per row, and the compare
 * inlines here. */
#define AFG_BISECT(type, lo, hi, mid, before) \
  G_STMT_START                                \
    {                                         \
      while ((lo) < (hi))                     \
        {                                     \
          type mid = (lo) + ((hi) - (lo)) / 2; \
          if (before)                         \
            (lo) = mid + 1;                   \
          else                                \
            (hi) = mid;                       \
        }                                     \
    }                                         \
  G_STMT_END
