/* catalog.c - finding the built-in scenarios under the data folder. */
#define _POSIX_C_SOURCE 200809L
#include "catalog.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"

const char *mk_data_dir(void)
{
    const char *d = getenv("MUSKET_DATA");
    return d && *d ? d : MUSKET_DATA_DIR;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const mk_catalog_entry *)a)->id, ((const mk_catalog_entry *)b)->id);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* Adds every scenarios/<ruleset>/<name>.json file to out. */
int mk_catalog_list(mk_catalog_entry *out, int cap, mk_error *err)
{
    char top[512];
    snprintf(top, sizeof top, "%s/scenarios", mk_data_dir());
    DIR *d = opendir(top);
    if (!d)
        return mk_error_set(err, "internal", "cannot read the scenario folder '%s': %s", top,
                            strerror(errno));
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= MK_ID_MAX)
            continue;
        char sub[600];
        snprintf(sub, sizeof sub, "%s/%s", top, e->d_name);
        DIR *sd = opendir(sub);
        if (!sd)
            continue;
        struct dirent *f;
        while ((f = readdir(sd)) != NULL && n < cap) {
            if (f->d_name[0] == '.' || !ends_with(f->d_name, ".json"))
                continue;
            size_t stem = strlen(f->d_name) - 5;
            if (stem + strlen(e->d_name) + 2 > sizeof out[n].id)
                continue;
            mk_catalog_entry *c = &out[n];
            memset(c, 0, sizeof *c);
            snprintf(c->ruleset, sizeof c->ruleset, "%s", e->d_name);
            snprintf(c->id, sizeof c->id, "%s/%.*s", e->d_name, (int)stem, f->d_name);
            snprintf(c->path, sizeof c->path, "%s/%s", sub, f->d_name);
            json_error_t je;
            json_t *j = json_load_file(c->path, 0, &je);
            json_t *t = json_object_get(j, "title");
            snprintf(c->title, sizeof c->title, "%s",
                     json_is_string(t) ? json_string_value(t) : "(unreadable)");
            json_decref(j);
            n++;
        }
        closedir(sd);
    }
    closedir(d);
    qsort(out, (size_t)n, sizeof *out, by_id);
    return n;
}

/* Does name have the shape of a listed id, "<ruleset>/<name>" (two parts,
 * neither empty nor starting with '.', so never a way out of the folder),
 * within the listing's lengths? */
static bool id_shaped(const char *name)
{
    const char *slash = strchr(name, '/');
    return slash && slash != name && name[0] != '.' && slash[1] && slash[1] != '.' &&
           !strchr(slash + 1, '/') && (size_t)(slash - name) < MK_ID_MAX &&
           strlen(name) < sizeof ((mk_catalog_entry *)0)->id;
}

mk_scenario *mk_catalog_load(const char *name, const mk_ruleset *const *rulesets, int nrulesets,
                             mk_error *err)
{
    if (ends_with(name, ".json"))
        return mk_scenario_load_file(name, rulesets, nrulesets, err);
    /* An id names its file: loaded straight from it, without the listing,
     * which parses every scenario's JSON for its title (103 million
     * instructions by callgrind, two thirds of what fuzz/fuzz_resume.c's
     * study of 4 short games took). The listing is for the names that
     * have no file, and its message. */
    char path[600];
    FILE *f;
    if (id_shaped(name) &&
        snprintf(path, sizeof path, "%s/scenarios/%s.json", mk_data_dir(), name) <
            (int)sizeof path &&
        (f = fopen(path, "r")) != NULL) {
        fclose(f);
        return mk_scenario_load_file(path, rulesets, nrulesets, err);
    }
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    if (!all)
        return mk_error_set(err, "internal", "out of memory"), NULL;
    int n = mk_catalog_list(all, MK_CATALOG_MAX, err);
    mk_scenario *sc = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(all[i].id, name) == 0) {
            sc = mk_scenario_load_file(all[i].path, rulesets, nrulesets, err);
            free(all);
            return sc;
        }
    }
    if (n >= 0) {
        /* As many ids as the message holds, then how many more: a list
         * cut short without a word looked complete. */
        char known[400] = "";
        size_t used = 0;
        int i = 0;
        for (; i < n && used + MK_ID_MAX * 2 + 2 < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     all[i].id);
        if (i < n)
            snprintf(known + used, sizeof known - used, " and %d more: musket list", n - i);
        mk_error_set(err, "bad_arg", "unknown scenario '%s' (built-in: %s; or give a .json file)",
                     name, n ? known : "none");
    }
    free(all);
    return NULL;
}
