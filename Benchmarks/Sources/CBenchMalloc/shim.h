#ifndef PERSISTANCE_BENCH_CMALLOC_SHIM_H
#define PERSISTANCE_BENCH_CMALLOC_SHIM_H
/* glibc's mallopt and its parameters, which Swift's Glibc module does not export. */
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif
