// The C consumer compiled as C++ (tests/consumer/run.sh: C++11, linked statically and
// dynamically): the public headers' extern "C" and their C++ cleanliness are what it checks.
#define CONSUMER_LANG "C++"
#include "consumer.c"
