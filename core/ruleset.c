/* ruleset.c - the small helpers every ruleset shares: comparing actions,
 * hashing state bytes, and looking names up in a ruleset's tables. */
#include "ruleset.h"

#include <string.h>

/* True when a and b are the same choice: type, flags, unit, other, target
 * and the hexes of the path agree. cost is what legal() computed for the
 * choice, not part of it, so it is not compared. */
bool mk_action_equal(const mk_action *a, const mk_action *b)
{
    if (a->type != b->type || a->flags != b->flags || a->unit != b->unit ||
        a->other != b->other || a->target != b->target || a->npath != b->npath)
        return false;
    int n = a->npath <= MK_PATH_MAX ? a->npath : MK_PATH_MAX;
    for (int i = 0; i < n; i++)
        if (a->path[i] != b->path[i])
            return false;
    return true;
}

/* FNV-1a (64-bit) over n bytes at p, continuing from h; start a new hash
 * with MK_HASH_INIT. Returns the new hash. */
uint64_t mk_hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;   /* the FNV 64-bit prime */
    }
    return h;
}

/* Index of id in names[0..n), or -1 (a NULL name or table is "absent"). */
static int find_name(const char *const *names, int n, const char *id)
{
    if (!names || !id)
        return -1;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], id) == 0)
            return i;
    return -1;
}

/* Index of the optional rule with that id ("htl.11.3"), or -1. */
int mk_ruleset_option(const mk_ruleset *rs, const char *id)
{
    if (!rs || !rs->options || !id)
        return -1;
    for (int i = 0; i < rs->noptions; i++)
        if (rs->options[i].id && strcmp(rs->options[i].id, id) == 0)
            return i;
    return -1;
}

/* Index of the terrain with that name in rs->terrains, or -1. */
int mk_ruleset_terrain(const mk_ruleset *rs, const char *name)
{
    return rs ? find_name(rs->terrains, rs->nterrains, name) : -1;
}

/* Index of the unit kind with that name in rs->kinds, or -1. */
int mk_ruleset_kind(const mk_ruleset *rs, const char *name)
{
    return rs ? find_name(rs->kinds, rs->nkinds, name) : -1;
}
