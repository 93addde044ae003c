/* protocol.h - the musket engine protocol (MEP, PROTOCOL.md): one JSON
 * request in, one JSON response out, for one session holding at most one
 * game. `musket engine` reads lines from stdin and writes the answers; the
 * web server carries the same objects.
 *
 * Bad input never changes the game: every error answer leaves the session
 * exactly as it was before the request. */
#ifndef MK_PROTOCOL_H
#define MK_PROTOCOL_H

#include <jansson.h>
#include <stdbool.h>

#include "game.h"

#define MK_PROTOCOL_VERSION 1
#define MK_LINE_MAX (1 << 20)   /* longest request line accepted, in bytes */

/* Chooses an action for the deciding side of g without playing it (the
 * protocol's "ai"). args is the request object (engine, budget_ms,
 * iterations, seed). Returns 0, or -1 with err. */
typedef int (*mk_ai_choose_fn)(const mk_game *g, json_t *args, mk_action *out, mk_error *err);

typedef struct mk_session {
    const mk_ruleset *const *rulesets;
    int nrulesets;
    mk_ai_choose_fn ai;     /* NULL: "ai" answers bad_arg */
    bool networked;         /* refuse "dice" (only the server rolls) */
    mk_game *game;          /* owned; NULL before "new" */
    bool quit;              /* set by "quit" */
} mk_session;

void mk_session_init(mk_session *s, const mk_ruleset *const *rulesets, int nrulesets,
                     mk_ai_choose_fn ai);
void mk_session_free(mk_session *s);

/* Answers one request object (never NULL; a new reference). */
json_t *mk_session_request(mk_session *s, json_t *req);
/* Answers one request line (len bytes, no newline needed): parses it,
 * answers, and returns the response as compact JSON text to free(). */
char *mk_session_line(mk_session *s, const char *line, size_t len);

#endif
