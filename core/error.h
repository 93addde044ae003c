/* error.h - the error value every library call that can fail fills in.
 *
 * The library never prints and never exits: it returns a status and leaves
 * a code and a message here (in the manner of SQLite's rc + errmsg). Codes
 * are the engine protocol's (PROTOCOL.md): "bad_json", "bad_arg",
 * "scenario_invalid", "illegal_action", "not_undoable", ... */
#ifndef MK_ERROR_H
#define MK_ERROR_H

#include <stddef.h>

#define MK_ERROR_MSG_MAX 512

typedef struct mk_error {
    const char *code;             /* a static string, or NULL when no error */
    char msg[MK_ERROR_MSG_MAX];   /* what was wrong and where */
} mk_error;

#if defined(__GNUC__)
#define MK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MK_PRINTF(a, b)
#endif

/* Sets err (which may be NULL) to code and a printf-formatted message.
 * Returns -1 so that callers can write `return mk_error_set(...)`. */
int mk_error_set(mk_error *err, const char *code, const char *fmt, ...) MK_PRINTF(3, 4);

/* Prefixes the message already in err with a printf-formatted context
 * ("scenarios/x.json: "), keeping the code. Returns -1. */
int mk_error_prefix(mk_error *err, const char *fmt, ...) MK_PRINTF(2, 3);

void mk_error_clear(mk_error *err);

#endif
