/* CHECKF: a cmocka check that says what failed, with a printf-style message. Include after
 * <cmocka.h>. */
#ifndef MADPOST_TESTS_CHECK_H
#define MADPOST_TESTS_CHECK_H

#define CHECKF(cond, ...)                                                                          \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      print_error("%s:%d: check failed: %s\n  ", __FILE__, __LINE__, #cond);                     \
      print_error(__VA_ARGS__);                                                                    \
      print_error("\n");                                                                           \
      fail();                                                                                      \
    }                                                                                              \
  } while (0)

#endif
