/* catalog.h - the built-in scenarios: JSON files under the data folder's
 * scenarios/<ruleset>/<name>.json, known by the id "<ruleset>/<name>".
 *
 * The data folder is $MUSKET_DATA if set, else the source tree the program
 * was built from (MUSKET_DATA_DIR). */
#ifndef MK_CATALOG_H
#define MK_CATALOG_H

#include "scenario.h"

#define MK_CATALOG_MAX 64

typedef struct mk_catalog_entry {
    char id[MK_ID_MAX * 2];     /* "htl/trenton" */
    char ruleset[MK_ID_MAX];    /* "htl" */
    char title[MK_TITLE_MAX];
    char path[512];
} mk_catalog_entry;

/* The data folder (static storage; do not free). */
const char *mk_data_dir(void);

/* Lists the built-in scenarios, sorted by id, into out (room for cap);
 * returns how many, or -1 with err if the folder cannot be read. A file
 * that is not valid JSON is listed with the title "(unreadable)". */
int mk_catalog_list(mk_catalog_entry *out, int cap, mk_error *err);

/* Finds a scenario by built-in id ("htl/trenton") or, when the name ends
 * in ".json", by file path, and loads it. NULL with err. */
mk_scenario *mk_catalog_load(const char *name, const struct mk_ruleset *const *rulesets,
                             int nrulesets, mk_error *err);

#endif
