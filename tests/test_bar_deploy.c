/* test_bar_deploy.c - the option bar.deploy (Monmouth 7.xb-c, the "B."
 * paragraphs: the players choose their set-up within the text's areas):
 * who deploys first in each scenario, a deploy that moves a piece, the
 * refusals (a hex outside its list, an over-stacked hex, the other side's
 * piece, a Command Leader away from his Command), `next` to the other side
 * and then to turn 1 exactly as without the option, the scenario files'
 * "deploy" lists read and checked, and a random game with the option
 * played to the end with legal actions only. */
#include "bar_fixture.h"
#include "core/game.h"

static const char *const files[5] = {NULL, "1-lees-repulse", "2-washingtons-stand", "3-grand-battle",
                                     "4-general-engagement"};
static mk_action list[MK_MAX_ACTIONS];

static void init_with(unsigned options, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    mk_events_init(&ev, evs, 512);
    mk_error err = {0};
    CHECK_EQ(sc->rs->init(s, sc, options, seed, &ev, &err), 0);
}

static int apply_err(const mk_action *a, mk_error *err)
{
    mk_events_init(&ev, evs, 512);
    return sc->rs->apply(s, sc, a, &ev, err);
}

static mk_action deploy_action(int i, mk_hex h)
{
    mk_action a = {.type = BA_DEPLOY, .unit = (int16_t)i, .other = -1, .target = -1};
    a.path[0] = h;
    a.npath = 1;
    return a;
}

static bool in_list(int i, mk_hex h)
{
    for (int k = 0; k < x->dep_n[i]; k++)
        if (x->dep[x->dep_at[i] + k] == h)
            return true;
    return false;
}

static const char *phase_name(void)
{
    static char b[32];
    json_t *o = sc->rs->state_json(s, sc);
    snprintf(b, sizeof b, "%s", json_string_value(json_object_get(o, "phase")));
    json_decref(o);
    return b;
}

/* Monmouth 7.1b-7.4b B: "The American player deploys his units first"
 * (scenario 2: the British); `next` passes to the other player, whose
 * `next` starts turn 1 exactly as a game without the option. */
static void test_phase_order(void)
{
    static const int first[5] = {-1, BAR_AMERICAN, BAR_BRITISH, BAR_AMERICAN, BAR_AMERICAN};
    for (int n = 1; n <= 4; n++) {
        if (n > 1 && !use_scenario(files[n]))
            continue;
        int fixed = 0, area = 0;
        for (int i = 0; i < sc->nunits; i++) {
            if (x->dep_n[i] > 0)
                area++;
            else if (x->p[i].arrive < 0)
                fixed++;
            if (x->dep_n[i] > 0)
                CHECK(in_list(i, sc->units[i].hex));   /* the file's "hex" stays the default */
        }
        CHECK(area > 0);
        CHECK(fixed > 0);
        static bar_state plain;
        init_with(0, 99);
        plain = *s;
        CHECK(s->phase != BP_DEPLOY);   /* without the option: as before */
        init_with(BO_DEPLOY, 99);
        CHECK_EQ(s->phase, BP_DEPLOY);
        CHECK_EQ(s->side, first[n]);
        CHECK_STR(phase_name(), "deployment");
        CHECK(find_ev("deployment", NULL) != NULL);
        CHECK_EQ(sc->rs->to_move(s), first[n]);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        CHECK_EQ(s->phase, BP_DEPLOY);
        CHECK_EQ(s->side, bar_other(first[n]));
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        CHECK(s->phase != BP_DEPLOY);
        /* the first turn as without the option: the same state (dice
         * included) but for the two actions counted and the option */
        CHECK_EQ(s->opts, BO_DEPLOY);
        plain.opts = s->opts;
        CHECK(s->head.rng.state == plain.head.rng.state && s->head.rng.rolls == plain.head.rng.rolls);
        CHECK_EQ(memcmp((const char *)s + sizeof s->head, (const char *)&plain + sizeof plain.head,
                        sizeof *s - sizeof s->head),
                 0);
        if (n > 1)
            back_to_scenario_1();
    }
}

/* A legal deploy moves the piece; a hex outside its list, the other
 * side's piece and the same hex are refused. */
static void test_deploy_moves(void)
{
    init_with(BO_DEPLOY, 5);
    CHECK_EQ(s->side, BAR_AMERICAN);
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    int k = -1, nd = 0;
    for (int j = 0; j < n; j++) {
        if (list[j].type != BA_DEPLOY)
            continue;
        nd++;
        CHECK_EQ(x->p[list[j].unit].side, BAR_AMERICAN);
        CHECK(in_list(list[j].unit, list[j].path[0]));
        if (k < 0 && !bar_is_leader(&x->p[list[j].unit]))
            k = j;
    }
    CHECK(nd > 0);
    CHECK(k >= 0);
    CHECK_EQ(list[n - 1].type, BA_NEXT);
    if (k < 0)
        return;
    int i = list[k].unit;
    mk_hex to = list[k].path[0], from = s->pc[i].hex;
    json_t *aj = sc->rs->action_json(s, sc, &list[k]);
    CHECK_STR(json_string_value(json_object_get(aj, "type")), "deploy");
    char *txt = json_dumps(aj, 0);
    CHECK_EQ(act(txt), 0);   /* the JSON the terminal and the page send */
    free(txt);
    json_decref(aj);
    CHECK_EQ(s->pc[i].hex, to);
    const mk_event *e = find_ev("deploy", NULL);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ(e->unit, i);
        CHECK_EQ(e->from, from);
    }
    CHECK_EQ(s->phase, BP_DEPLOY);
    CHECK_EQ(s->side, BAR_AMERICAN);
    CHECK_EQ(s->pc[i].flags & BF_ACTED, 0);
    /* back to its first hex: also one of its hexes */
    mk_error err = {0};
    mk_action back = deploy_action(i, from);
    CHECK_EQ(apply_err(&back, &err), 0);
    CHECK_EQ(s->pc[i].hex, from);
    /* a hex outside its list */
    mk_hex far = hx("E3915");
    CHECK(!in_list(i, far));
    mk_action out = deploy_action(i, far);
    CHECK(apply_err(&out, &err) != 0);
    CHECK(strstr(err.msg, "not another of its deploy hexes") != NULL);
    CHECK_EQ(s->pc[i].hex, from);
    /* its own hex */
    mk_action same = deploy_action(i, from);
    CHECK(apply_err(&same, &err) != 0);
    /* a British piece while the Americans deploy */
    int b = -1;
    for (int j = 0; j < sc->nunits && b < 0; j++)
        if (x->p[j].side == BAR_BRITISH && x->dep_n[j] > 1 && s->pc[j].hex != MK_NO_HEX)
            b = j;
    if (b >= 0) {
        mk_hex h = x->dep[x->dep_at[b]] == s->pc[b].hex ? x->dep[x->dep_at[b] + 1] : x->dep[x->dep_at[b]];
        mk_action ba = deploy_action(b, h);
        CHECK(apply_err(&ba, &err) != 0);
        CHECK(strstr(err.msg, "deploy now") != NULL);
    }
    /* the other actions are not the deployment's */
    CHECK(act("{\"type\":\"activate\",\"command\":\"WAY\"}") != 0);
}

/* The stacking of a move (2.1c-d): a hex already full is refused, and
 * not listed. */
static void test_overstacked(void)
{
    init_with(BO_DEPLOY, 5);
    int done = 0;
    for (int i = 0; i < sc->nunits && !done; i++) {
        if (x->p[i].side != BAR_AMERICAN || bar_is_leader(&x->p[i]) || x->dep_n[i] < 2 || s->pc[i].hex == MK_NO_HEX)
            continue;
        mk_hex h = MK_NO_HEX;
        for (int k = 0; k < x->dep_n[i] && h == MK_NO_HEX; k++) {
            mk_hex c = x->dep[x->dep_at[i] + k];
            bool empty_hex = true;
            for (int j = 0; j < sc->nunits; j++)
                empty_hex &= s->pc[j].hex != c;
            if (empty_hex)
                h = c;
        }
        if (h == MK_NO_HEX)
            continue;
        /* fill h with other American units until i no longer fits */
        for (int j = 0; j < sc->nunits && bar_stack_limit(s, sc, h, s->pc[i].sp, s->pc[i].form) <= 0; j++)
            if (j != i && x->p[j].side == BAR_AMERICAN && x->p[j].kind == BK_INFANTRY && s->pc[j].hex != MK_NO_HEX)
                s->pc[j].hex = h;
        if (bar_stack_limit(s, sc, h, s->pc[i].sp, s->pc[i].form) <= 0)
            continue;
        mk_error err = {0};
        mk_action a = deploy_action(i, h);
        CHECK(apply_err(&a, &err) != 0);
        CHECK(strstr(err.msg, "over-stacked") != NULL);
        CHECK(s->pc[i].hex != h);
        int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS), listed = 0;
        for (int j = 0; j < n; j++)
            listed += list[j].type == BA_DEPLOY && list[j].unit == i && list[j].path[0] == h;
        CHECK_EQ(listed, 0);
        done = 1;
    }
    CHECK(done);
}

/* 7.xb B: "Command Leaders can set up with any unit of their Command":
 * a leader placed so deploys only to a hex with such a unit, and follows
 * the last one that leaves his hex (ours). */
static void test_command_leader(void)
{
    int tried = 0, away = 0;
    for (int n = 3; n <= 4 && !tried; n++) {
        if (!use_scenario(files[n]))
            continue;
        init_with(BO_DEPLOY, 3);
        for (int j = 0; j < sc->nunits && !tried; j++) {
            if (x->dep_with[j] < 0 || x->p[j].side != s->side || x->dep_n[j] < 2)
                continue;
            /* move every unit of his Command out of some hex of his list */
            int n2 = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
            for (int k = 0; k < n2; k++)
                if (list[k].type == BA_DEPLOY && list[k].unit == j) {
                    mk_error err = {0};
                    mk_action a = list[k];
                    CHECK_EQ(apply_err(&a, &err), 0);
                    CHECK_EQ(s->pc[j].hex, a.path[0]);
                    tried = 1;
                    break;
                }
            if (!tried)
                continue;
            /* a hex of his list with no unit of his Command (its units
             * set aside into his hex, by hand) */
            for (int k = 0; k < x->dep_n[j]; k++) {
                mk_hex h = x->dep[x->dep_at[j] + k];
                if (h == s->pc[j].hex)
                    continue;
                for (int u = 0; u < sc->nunits; u++)
                    if (s->pc[u].hex == h)
                        s->pc[u].hex = s->pc[j].hex;
                mk_error err = {0};
                mk_action a = deploy_action(j, h);
                CHECK(apply_err(&a, &err) != 0);
                CHECK(strstr(err.msg, "no unit of his Command") != NULL);
                away++;
                break;
            }
            /* the units of his Command in his hex leave: he goes with the last */
            mk_hex at = s->pc[j].hex;
            for (int u = 0; u < sc->nunits; u++) {
                if (s->pc[u].hex != at || bar_is_leader(&x->p[u]))
                    continue;
                int n3 = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
                for (int k = 0; k < n3; k++)
                    if (list[k].type == BA_DEPLOY && list[k].unit == u) {
                        mk_error err = {0};
                        mk_action a = list[k];
                        CHECK_EQ(apply_err(&a, &err), 0);
                        break;
                    }
            }
            bool with = false;
            for (int u = 0; u < sc->nunits; u++)
                with |= u != j && s->pc[u].hex == s->pc[j].hex && !bar_is_leader(&x->p[u]);
            CHECK(with);
        }
        back_to_scenario_1();
    }
    CHECK(tried);
    CHECK(away > 0);
}

/* The scenario file's "deploy": a bad hex is refused naming its JSON path. */
static void test_scenario_field(void)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    json_error_t je;
    json_t *o = json_load_file("scenarios/bar/1-lees-repulse.json", 0, &je);
    CHECK(o != NULL);
    if (!o)
        return;
    json_t *units = json_object_get(o, "units");
    int k = -1;
    for (size_t i = 0; i < json_array_size(units) && k < 0; i++)
        if (json_object_get(json_array_get(units, i), "deploy"))
            k = (int)i;
    CHECK(k >= 0);
    json_t *d = json_object_get(json_array_get(units, (size_t)k), "deploy");
    json_array_set_new(d, 1, json_string("Q9999"));
    mk_error err = {0};
    mk_scenario *bad = mk_scenario_from_json(o, "bad.json", all, n, &err);
    CHECK(bad == NULL);
    char want[64];
    snprintf(want, sizeof want, "units[%d].deploy[1]", k);
    CHECK(strstr(err.msg, want) != NULL);
    if (bad)
        mk_scenario_free(bad);
    /* the piece's hex must be one of them */
    json_array_clear(d);
    json_array_append_new(d, json_string("E3915"));
    json_array_append_new(d, json_string("E3914"));
    err = (mk_error){0};
    bad = mk_scenario_from_json(o, "bad.json", all, n, &err);
    CHECK(bad == NULL);
    if (bad)
        mk_scenario_free(bad);
    json_decref(o);
}

/* A random game with the option, played to the end with legal actions
 * only (apply = legal). */
static void test_random_game(void)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    mk_error err = {0};
    mk_scenario *one = mk_scenario_load_file("scenarios/bar/1-lees-repulse.json", all, n, &err);
    CHECK(one != NULL);
    if (!one)
        return;
    mk_game *gm = mk_game_new(one, BO_DEPLOY, 2026, &err);
    CHECK(gm != NULL);
    if (!gm)
        return;
    mk_rng pick;
    mk_rng_seed(&pick, 11);
    long steps = 0, deploys = 0, refused = 0;
    while (!mk_game_over(gm) && steps < 400000) {
        int na = mk_game_legal(gm, list, MK_MAX_ACTIONS);
        if (na <= 0)
            break;
        const bar_state *bs = gm->st;
        int k = (int)mk_rng_below(&pick, (uint32_t)na);
        if (bs->phase == BP_DEPLOY && list[k].type == BA_NEXT && deploys < 20)
            k = 0;   /* deploy a while first */
        if (bs->phase == BP_DEPLOY && list[k].type == BA_DEPLOY)
            deploys++;
        if (mk_game_act(gm, &list[k], &err) != 0) {
            fprintf(stderr, "legal action refused: %s\n", err.msg);
            refused++;
            break;
        }
        steps++;
    }
    CHECK(mk_game_over(gm));
    CHECK_EQ(refused, 0);
    CHECK(deploys >= 20);
    printf("scenario 1 with bar.deploy: %ld deploys, over after %ld actions\n", deploys, steps);
    mk_game_free(gm);
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_deploy");
    test_phase_order();
    test_deploy_moves();
    test_overstacked();
    test_command_leader();
    test_scenario_field();
    test_random_game();
    mk_scenario_free(sc);
    return check_done("test_bar_deploy");
}
