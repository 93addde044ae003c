/* data.c - reading the files of data/bar/ (the charts and counters we keep
 * as data, Monmouth 1.2): one place for the default path and the parse
 * error, so every loader reports a broken file the same way. */
#include <stdio.h>

#include <jansson.h>

#include "core/catalog.h"
#include "rules/bar/bar.h"

json_t *bar_data_read(const char **path, const char *name, char *buf, size_t n, mk_error *err)
{
    if (!*path) {
        snprintf(buf, n, "%s/data/bar/%s", mk_data_dir(), name);
        *path = buf;
    }
    json_error_t je;
    json_t *root = json_load_file(*path, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        mk_error_set(err, "scenario_invalid", "%s: %d:%d: %s", *path, je.line, je.column,
                     je.text);
    return root;
}
