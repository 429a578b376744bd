/* SPDX-License-Identifier: MIT */
#pragma once

#include "afg-profile.h"
#include "afg-string-table.h"

G_BEGIN_DECLS

struct _AfgProfile {
  char           *source_path;
  char           *source_name;
  guint64         source_bytes;
  AfgStats        stats;
  double          load_seconds;
  AfgStringTable  strings;
  AfgNode        *nodes;
  guint           n_nodes;
  AfgThread      *threads;
  guint           n_threads;
};

AfgProfile *afg_profile_new (const char *source_path,
                             guint64     source_bytes);

G_END_DECLS
