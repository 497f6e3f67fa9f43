/* The library's own version, for a program to compare with the headers it was built with. */
#include <madpost/version.h>

const char *madpost_version(void) { return MADPOST_VERSION_STRING; }
