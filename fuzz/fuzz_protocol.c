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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_session s;
    mk_session_init(&s, rs, n, mk_ai_choose);
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
