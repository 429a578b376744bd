/* SPDX-License-Identifier: MIT */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every " at 0x<hex digits>" of @name as " at 0x…", so that the same call
 * on objects at other addresses (and in other processes) is one frame.
 * NULL when @name holds no address. */
char *afg_address_merge (const char *name);

G_END_DECLS
