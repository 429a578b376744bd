/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>


G_BEGIN_DECLS

#define AFG_TRANSFORM_ERROR (afg_transform_error_quark ())

typedef enum {
  AFG_TRANSFORM_ERROR_REGEX,     /* a /REGEX/ refused or not compiled */
  AFG_TRANSFORM_ERROR_NAME,      /* an F that is neither a name nor /REGEX/ */
  AFG_TRANSFORM_ERROR_PATH,      /* a focus-subtree PATH that cannot be read */
  AFG_TRANSFORM_ERROR_OP,        /* no such transform */
} AfgTransformError;

GQuark afg_transform_error_quark (void);

/* Which frames a transform's F names: one full frame name, or /REGEX/,
 * an unanchored search in ECMAScript syntax without flags. The page runs
 * the same text through JavaScript's RegExp, so the C side takes only a
 * subset it can translate to the same meaning in PCRE, and refuses the
 * rest with a hint. `//name` is the literal name `/name`. */
typedef struct _AfgFrameMatcher AfgFrameMatcher;

AfgFrameMatcher *afg_frame_matcher_new     (const char            *arg,
                                            GError               **error);
void             afg_frame_matcher_free    (AfgFrameMatcher       *self);
gboolean         afg_frame_matcher_matches (const AfgFrameMatcher *self,
                                            const char            *name);
/* The F that names exactly @name (a leading '/' doubled). */
char            *afg_frame_matcher_quote_name   (const char            *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AfgFrameMatcher, afg_frame_matcher_free)

G_END_DECLS
