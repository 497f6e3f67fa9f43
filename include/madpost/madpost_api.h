/* What a public header puts around its declarations: C linkage for C++ users, and the library's
 * export list (docs/install.md, "Exported symbols"). */
#ifndef MADPOST_API_H
#define MADPOST_API_H

/* libmadpost is built with -fvisibility=hidden, so a function is exported from libmadpost.so
 * only when it is declared between MADPOST_BEGIN_DECLS and MADPOST_END_DECLS in a header of
 * include/madpost/; the helpers the model files share (cmodel/ *_int.h) stay inside the library.
 * A region rather than a mark on each declaration: a function added to a public header is
 * exported without anyone remembering to, and `make test`'s exports part checks that the
 * exported set is exactly what the public headers declare. */
#if defined(__GNUC__) || defined(__clang__)
#define MADPOST_VISIBILITY_PUSH _Pragma("GCC visibility push(default)")
#define MADPOST_VISIBILITY_POP _Pragma("GCC visibility pop")
#else
#define MADPOST_VISIBILITY_PUSH
#define MADPOST_VISIBILITY_POP
#endif

#ifdef __cplusplus
#define MADPOST_BEGIN_DECLS extern "C" { MADPOST_VISIBILITY_PUSH
#define MADPOST_END_DECLS MADPOST_VISIBILITY_POP }
#else
#define MADPOST_BEGIN_DECLS MADPOST_VISIBILITY_PUSH
#define MADPOST_END_DECLS MADPOST_VISIBILITY_POP
#endif

#endif
