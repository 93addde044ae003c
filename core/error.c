/* error.c - filling in mk_error values. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int mk_error_set(mk_error *err, const char *code, const char *fmt, ...)
{
    if (!err)
        return -1;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int mk_error_prefix(mk_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    char head[MK_ERROR_MSG_MAX], old[MK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s%s", head, old);
    return -1;
}

void mk_error_clear(mk_error *err)
{
    if (err) {
        err->code = NULL;
        err->msg[0] = '\0';
    }
}
