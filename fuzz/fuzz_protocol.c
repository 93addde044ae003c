/* fuzz_protocol.c - libFuzzer target: the input's lines are protocol
 * requests to one engine session with the real rulesets. Any crash, leak
 * or undefined behaviour is a bug; error answers are expected. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "core/protocol.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The "ai" command with a small budget: the fuzzer is after the argument
 * handling, not after 1000 MCTS iterations per input (which would leave it
 * a few executions a second). Time budgets become iteration ones, so that
 * a run is reproducible. */
static int small_ai(const mk_game *g, json_t *args, mk_action *out, mk_error *err)
{
    json_t *a = json_deep_copy(args);
    /* Values out of range are left, for their errors. */
    json_t *b = json_object_get(a, "budget_ms"), *it = json_object_get(a, "iterations");
    json_t *th = json_object_get(a, "threads");
    if (json_is_integer(b) && json_integer_value(b) >= 0 && json_integer_value(b) <= 60000)
        json_object_del(a, "budget_ms");
    if (!it || (json_is_integer(it) && json_integer_value(it) > 4 &&
                json_integer_value(it) <= 10000000))
        json_object_set_new(a, "iterations", json_integer(4));
    if (json_is_integer(th) && json_integer_value(th) >= 0 && json_integer_value(th) <= 64)
        json_object_del(a, "threads");
    int rc = mk_ai_choose(g, a, out, err);
    json_decref(a);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_session s;
    mk_session_init(&s, rs, n, small_ai);
    size_t start = 0;
    for (size_t i = 0; i <= size && !s.quit; i++) {
        if (i == size || data[i] == '\n') {
            if (i > start) {
                char *out = mk_session_line(&s, (const char *)data + start, i - start);
                if (!out)
                    abort();   /* every request gets an answer */
                free(out);
            }
            start = i + 1;
        }
    }
    mk_session_free(&s);
    return 0;
}
