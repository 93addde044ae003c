/* rules.c - the registry of rulesets. */
#include "rules.h"

#include <string.h>

static const mk_ruleset *const all_rulesets[] = {
    &mk_htl_ruleset,
    &mk_hm_ruleset,
    &mk_bar_ruleset,
};

const mk_ruleset *const *mk_rulesets(int *n)
{
    *n = (int)(sizeof all_rulesets / sizeof all_rulesets[0]);
    return all_rulesets;
}

const mk_ruleset *mk_ruleset_find(const char *id)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(all[i]->id, id) == 0)
            return all[i];
    return NULL;
}
