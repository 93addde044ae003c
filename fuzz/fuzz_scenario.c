/* fuzz_scenario.c - libFuzzer target for the scenario loader: any bytes
 * must give a scenario or a "scenario_invalid" refusal, never a crash or
 * a leak. Seed corpus: fuzz/corpus/scenario/ (the test fixtures). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"
#include "core/scenario.h"

/* Checked in every build type (assert is gone under NDEBUG). */
#define MUST(c) \
    do {                \
        if (!(c))       \
            abort();    \
    } while (0)

/* The fake ruleset of tests/test_scenario.c. */
static const char *const terrains[] = {"clear", "forest", "hill"};
static const char *const kinds[] = {"regular", "leader"};

/* At most one regular per hex at set-up. */
static int fake_check(const mk_scenario *sc, mk_error *err)
{
    for (int i = 0; i < sc->nunits; i++)
        for (int j = 0; j < i; j++)
            if (sc->units[i].kind == 0 && sc->units[j].kind == 0 &&
                sc->units[i].hex != MK_NO_HEX && sc->units[i].hex == sc->units[j].hex)
                return mk_error_set(err, "scenario_invalid", "units[%d].hex: two regulars", i);
    return 0;
}

static const mk_ruleset fake = {
    .id = "test",
    .name = "Test",
    .terrains = terrains,
    .nterrains = 3,
    .kinds = kinds,
    .nkinds = 2,
    .check_scenario = fake_check,
};
static const mk_ruleset *const rulesets[] = {&fake};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mk_error err = {0};
    mk_scenario *sc = mk_scenario_parse((const char *)data, size, "fuzz", rulesets, 1, &err);
    if (sc) {
        /* What a loaded scenario promises its rulesets. */
        MUST(sc->nsides == 2 && sc->first >= 0 && sc->first < 2);
        MUST(sc->nunits >= 0 && sc->nunits <= MK_MAX_UNITS);
        int size_hexes = mk_grid_size(&sc->map.grid);
        MUST(size_hexes >= 1 && size_hexes <= MK_MAX_HEX);
        for (int i = 0; i < sc->nunits; i++) {
            const mk_sc_unit *u = &sc->units[i];
            MUST(u->hex == MK_NO_HEX || (u->hex >= 0 && u->hex < size_hexes));
            MUST(u->side >= 0 && u->side < 2 && u->kind >= 0 && u->kind < 2);
            MUST(u->mp_start >= u->mp);
            char label[MK_HEX_LABEL_MAX];
            mk_hex h;
            char e[128];
            if (u->hex != MK_NO_HEX) {
                mk_hex_label(&sc->map.grid, u->hex, label);
                MUST(mk_hex_parse(&sc->map.grid, label, &h, e, sizeof e) == 0 && h == u->hex);
            }
            MUST(mk_scenario_unit(sc, u->id) == i);
        }
        for (int h = 0; h < size_hexes; h++)
            MUST(sc->map.terrain[h] < 3);
        mk_scenario_free(sc);
    } else {
        MUST(err.code && strcmp(err.code, "scenario_invalid") == 0);
        MUST(memchr(err.msg, '\0', sizeof err.msg) != NULL);
    }
    return 0;
}
