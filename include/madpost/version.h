/* The version of madpost: the library, its headers and the `madpost` command share it. This file
 * is its one source of truth: the Makefile reads the three numbers from here for the shared
 * library's name and soname and for the pkg-config files (docs/install.md). */
#ifndef MADPOST_VERSION_H
#define MADPOST_VERSION_H

#include <madpost/madpost_api.h>

/* MAJOR is the shared library's soname (libmadpost.so.MAJOR). It must grow whenever a program
 * built against the old headers could break against the new library: a public struct, union or
 * enum, or a block's port list changes (and when a function is removed or its type changes).
 * scripts/abi.sh fingerprints the public types and port lists; make test's abi part fails unless
 * the fingerprint is the one recorded for this MAJOR on the last `abi` line below. Raising MAJOR:
 * set MINOR and PATCH to 0 and add a line `abi MAJOR FINGERPRINT` (scripts/abi.sh print); never
 * edit an old line, they are the history.
 *
 * abi 1 8d4a81c9a150926c
 */
#define MADPOST_VERSION_MAJOR 1
/* MINOR grows when something is added (a function, a command, an option) and nothing breaks. */
#define MADPOST_VERSION_MINOR 0
/* PATCH grows for a fix that changes no interface. */
#define MADPOST_VERSION_PATCH 0

#define MADPOST_VERSION_STR_(x) #x
#define MADPOST_VERSION_STR(x) MADPOST_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH" of the headers a program was compiled with. */
#define MADPOST_VERSION_STRING                                                                     \
  MADPOST_VERSION_STR(MADPOST_VERSION_MAJOR)                                                       \
  "." MADPOST_VERSION_STR(MADPOST_VERSION_MINOR) "." MADPOST_VERSION_STR(MADPOST_VERSION_PATCH)

MADPOST_BEGIN_DECLS

/* "MAJOR.MINOR.PATCH" of the library a program runs with (which may be a newer one than its
 * headers, with the same MAJOR). */
const char *madpost_version(void);

MADPOST_END_DECLS

#endif
