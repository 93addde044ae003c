/* rules.h - the rulesets this build knows, for the programs to choose from. */
#ifndef MK_RULES_H
#define MK_RULES_H

#include "core/ruleset.h"

extern const mk_ruleset mk_htl_ruleset;   /* rules/htl: Hold the Line */
extern const mk_ruleset mk_hm_ruleset;
extern const mk_ruleset mk_bar_ruleset;   /* rules/bar: The Battle of Monmouth (BAR series) */

/* The known rulesets; *n is set to their number. */
const mk_ruleset *const *mk_rulesets(int *n);
/* The ruleset with that id ("htl"), or NULL. */
const mk_ruleset *mk_ruleset_find(const char *id);

#endif
