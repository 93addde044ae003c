/* check.h - the tiny test harness every tests/test_*.c uses.
 *
 * CHECK(cond) records a failure with file:line and carries on; each test
 * program ends with `return check_done("name");`, which prints
 * "name: N passed, M failed" and returns non-zero on any failure. */
#ifndef MK_CHECK_H
#define MK_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (cond) {                                                                \
            check_passed++;                                                        \
        } else {                                                                   \
            check_failed++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                             \
    do {                                                                           \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);            \
        if (check_a_ == check_b_) {                                                \
            check_passed++;                                                        \
        } else {                                                                   \
            check_failed++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n",      \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);               \
        }                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                            \
    do {                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                               \
        if (check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0) {             \
            check_passed++;                                                        \
        } else {                                                                   \
            check_failed++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" != \"%s\")\n",  \
                    __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)",    \
                    check_b_ ? check_b_ : "(null)");                               \
        }                                                                          \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
    return check_failed != 0;
}

#endif
