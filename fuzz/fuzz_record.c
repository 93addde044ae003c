/* fuzz_record.c - libFuzzer target: the input is a game record to replay. */
#include <stdint.h>
#include <stdlib.h>

#include "core/game.h"
#include "rules/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    json_error_t je;
    json_t *rec = json_loadb((const char *)data, size, 0, &je);
    if (!rec)
        return 0;
    mk_error err;
    mk_game *g = mk_game_replay(rec, rs, n, &err);
    mk_game_free(g);
    json_decref(rec);
    return 0;
}
