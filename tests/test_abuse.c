/* test_abuse.c - protocol abuse with the real rulesets (test_protocol.c
 * does the same on a toy ruleset): 1 MiB lines, deeply nested JSON,
 * invalid UTF-8, numbers out of range, unknown fields, actions for the
 * units of the side not to move, replay records with a wrong hash. Each
 * must be answered with a clear error (a known code and a message) and
 * leave the game exactly as it was: the same STATE (every field, not only
 * the hash), the same record and the same legal actions.
 *
 * For every ruleset, on its first built-in scenario, part-way through a
 * game (after a few actions, so there is something to lose). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "core/protocol.h"
#include "rules/rules.h"

static long cases;

static json_t *ask_n(mk_session *s, const char *line, size_t n)
{
    char *out = mk_session_line(s, line, n);
    CHECK(out != NULL);
    json_t *r = out ? json_loads(out, 0, NULL) : NULL;
    if (!r)
        fprintf(stderr, "unparsable response: %.200s\n", out ? out : "(null)");
    free(out);
    return r;
}

static json_t *ask(mk_session *s, const char *line) { return ask_n(s, line, strlen(line)); }

/* Everything a client can see of the game, as one text. */
static char *snapshot(mk_session *s)
{
    json_t *all = json_object();
    json_t *r = ask(s, "{\"cmd\":\"state\"}");
    json_object_set(all, "state", json_object_get(r, "state"));
    json_decref(r);
    r = ask(s, "{\"cmd\":\"record\"}");
    json_object_set(all, "record", json_object_get(r, "record"));
    json_decref(r);
    r = ask(s, "{\"cmd\":\"legal\"}");
    json_object_set(all, "legal", json_object_get(r, "actions"));
    json_decref(r);
    char *text = json_dumps(all, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(all);
    return text;
}

/* Sends a line that must be refused with code (or one of "a|b"), and
 * checks that the game did not change. */
static void refused_n(mk_session *s, const char *what, const char *line, size_t n,
                      const char *codes)
{
    cases++;
    char *before = snapshot(s);
    json_t *r = ask_n(s, line, n);
    const char *code = json_string_value(json_object_get(json_object_get(r, "error"), "code"));
    const char *msg = json_string_value(json_object_get(json_object_get(r, "error"), "message"));
    bool code_ok = false;
    if (code) {
        size_t cl = strlen(code);
        for (const char *p = codes; *p;) {
            size_t w = strcspn(p, "|");
            if (w == cl && strncmp(p, code, cl) == 0)
                code_ok = true;
            p += w + (p[w] == '|');
        }
    }
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK(code_ok);
    CHECK(msg && strlen(msg) > 5);
    if (!code_ok || !json_is_false(json_object_get(r, "ok")))
        fprintf(stderr, "  %s: wanted %s, got %s: %s\n", what, codes, code ? code : "(none)",
                msg ? msg : "");
    char *after = snapshot(s);
    CHECK_STR(after, before);
    if (strcmp(after, before) != 0)
        fprintf(stderr, "  %s: the game changed\n", what);
    free(before);
    free(after);
    json_decref(r);
}

static void refused(mk_session *s, const char *what, const char *line, const char *codes)
{
    refused_n(s, what, line, strlen(line), codes);
}

/* Plays the first legal action that is not end_turn (or end_turn). */
static void play_some(mk_session *s, int n)
{
    for (int i = 0; i < n; i++) {
        json_t *r = ask(s, "{\"cmd\":\"legal\"}");
        json_t *acts = json_object_get(r, "actions"), *pick = NULL, *a;
        size_t k;
        json_array_foreach(acts, k, a) {
            if (!pick && strcmp(json_string_value(json_object_get(a, "type")), "end_turn") != 0)
                pick = a;
        }
        if (!pick)
            pick = json_array_get(acts, 0);
        if (!pick) {
            json_decref(r);
            return;
        }
        json_t *req = json_pack("{s:s, s:O}", "cmd", "act", "action", pick);
        json_t *ans = mk_session_request(s, req);
        CHECK(json_is_true(json_object_get(ans, "ok")));
        json_decref(ans);
        json_decref(req);
        json_decref(r);
    }
}

static const char *to_move(mk_session *s)
{
    static char side[64];
    json_t *r = ask(s, "{\"cmd\":\"state\"}");
    snprintf(side, sizeof side, "%s",
             json_string_value(json_object_get(json_object_get(r, "state"), "to_move")));
    json_decref(r);
    return side;
}

static void abuse(const mk_ruleset *rs, const char *scenario_id)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    mk_session s;
    mk_session_init(&s, all, n, mk_ai_choose);
    char line[512];
    snprintf(line, sizeof line, "{\"cmd\":\"new\",\"scenario\":\"%s\",\"seed\":99}", scenario_id);
    json_t *r = ask(&s, line);
    CHECK(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    if (!s.game)
        return;
    play_some(&s, 3);
    printf("%s (%s): abuse part-way through the game\n", scenario_id, rs->id);

    /* 1 MiB lines: one byte over the limit is refused unread; a line just
     * under it is read (here a valid request with a long id). */
    {
        size_t big = MK_LINE_MAX + 1;
        char *l = malloc(big + 1);
        memset(l, ' ', big);
        memcpy(l, "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"},\"id\":\"", 48);
        memset(l + 48, 'x', big - 48 - 2);
        memcpy(l + big - 2, "\"}", 2);
        refused_n(&s, "a line of 1 MiB + 1", l, big, "bad_json");
        const char *head = "{\"cmd\":\"state\",\"id\":\"";
        size_t hl = strlen(head), just = MK_LINE_MAX;
        memcpy(l, head, hl);
        memset(l + hl, 'y', just - hl - 2);
        memcpy(l + just - 2, "\"}", 2);
        r = ask_n(&s, l, just);
        CHECK(json_is_true(json_object_get(r, "ok")));
        CHECK_EQ(json_string_length(json_object_get(r, "id")), just - hl - 2);
        json_decref(r);
        /* A 1 MiB line of nothing but garbage. */
        memset(l, 0xff, big);
        refused_n(&s, "1 MiB of 0xff", l, MK_LINE_MAX, "bad_json");
        free(l);
    }
    /* Deeply nested JSON, as arrays, objects, and inside an action. */
    {
        size_t depth = 200000, k = 0;
        char *l = malloc(depth * 6 + 100);
        k += (size_t)sprintf(l, "{\"cmd\":\"act\",\"action\":");
        for (size_t i = 0; i < depth; i++)
            l[k++] = '[';
        for (size_t i = 0; i < depth; i++)
            l[k++] = ']';
        l[k++] = '}';
        refused_n(&s, "arrays nested 200000 deep", l, k, "bad_json");
        k = (size_t)sprintf(l, "{\"cmd\":\"act\",\"action\":");
        for (size_t i = 0; i < depth; i++)
            k += (size_t)sprintf(l + k, "{\"a\":");
        l[k++] = '1';
        for (size_t i = 0; i <= depth; i++)
            l[k++] = '}';
        refused_n(&s, "objects nested 200000 deep", l, k, "bad_json");
        /* Deep enough to parse (jansson allows 2048), then refused as an action. */
        k = (size_t)sprintf(l, "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\",\"x\":");
        for (size_t i = 0; i < 1000; i++)
            l[k++] = '[';
        for (size_t i = 0; i < 1000; i++)
            l[k++] = ']';
        l[k++] = '}';
        l[k++] = '}';
        refused_n(&s, "arrays nested 1000 deep in an action", l, k, "bad_arg");
        free(l);
    }
    /* Invalid UTF-8 and escapes that are not characters. */
    refused(&s, "a bare continuation byte",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"\x80\",\"path\":[\"A1\"]}}",
            "bad_json");
    refused(&s, "an overlong '/'", "{\"cmd\":\"state\",\"id\":\"\xc0\xaf\"}", "bad_json");
    refused(&s, "a truncated sequence", "{\"cmd\":\"act\",\"action\":{\"type\":\"end_\xe2\x82\"}}",
            "bad_json");
    refused(&s, "0xff in a key", "{\"cmd\":\"act\",\"\xff\":1}", "bad_json");
    refused(&s, "an encoded surrogate", "{\"cmd\":\"state\",\"id\":\"\xed\xa0\x80\"}", "bad_json");
    refused(&s, "a lone surrogate escape", "{\"cmd\":\"state\",\"id\":\"\\ud800\"}", "bad_json");
    refused(&s, "a NUL escape", "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\\u0000x\"}}",
            "bad_json");
    {
        const char l[] = "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"}}\0garbage";
        refused_n(&s, "a raw NUL byte in the line", l, sizeof l - 1, "bad_json");
    }
    /* Numbers out of range. */
    refused(&s, "a seed over 64 bits",
            "{\"cmd\":\"new\",\"scenario\":\"htl/tutorial\",\"seed\":184467440737095516160}",
            "bad_json");
    refused(&s, "a seed of 1e400", "{\"cmd\":\"new\",\"scenario\":\"htl/tutorial\",\"seed\":1e400}",
            "bad_json");
    refused(&s, "a real seed", "{\"cmd\":\"new\",\"scenario\":\"htl/tutorial\",\"seed\":1.5}",
            "bad_arg");
    refused(&s, "a die of 2^32 + 6", "{\"cmd\":\"dice\",\"values\":[4294967302]}", "bad_arg");
    refused(&s, "a die of -1", "{\"cmd\":\"dice\",\"values\":[-1]}", "bad_arg");
    refused(&s, "a die of 100", "{\"cmd\":\"dice\",\"values\":[100]}", "bad_arg");
    refused(&s, "65 dice", "{\"cmd\":\"dice\",\"values\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
            "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}",
            "bad_arg");
    refused(&s, "iterations of 10^11", "{\"cmd\":\"ai\",\"engine\":\"mcts\",\"iterations\":99999999999}",
            "bad_arg");
    refused(&s, "a negative budget", "{\"cmd\":\"ai\",\"engine\":\"mcts\",\"budget_ms\":-5}",
            "bad_arg");
    refused(&s, "no rollout candidates", "{\"cmd\":\"ai\",\"engine\":\"mcts\",\"rollout_k\":0}",
            "bad_arg");
    refused(&s, "1025 rollout candidates",
            "{\"cmd\":\"ai\",\"engine\":\"mcts\",\"rollout_k\":1025}", "bad_arg");
    {
        /* A rollout_k in range is a field the protocol knows. */
        json_t *ok = ask(&s, "{\"cmd\":\"ai\",\"engine\":\"mcts\",\"iterations\":8,\"rollout_k\":2}");
        CHECK(ok && json_is_true(json_object_get(ok, "ok")));
        json_decref(ok);
    }
    refused(&s, "a unit given as a number",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":4294967296,\"path\":[\"A1\"]}}",
            "bad_arg");
    refused(&s, "a hex far off the map",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"A-4-1\",\"path\":[\"Z99999999999\"]}}",
            "bad_arg");
    refused(&s, "a path of 1000 hexes",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"move\",\"unit\":\"A-4-1\",\"path\":["
            "\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\",\"A1\"]}}",
            "bad_arg");
    /* Unknown fields: in a request, in an action. */
    refused(&s, "an unknown request field", "{\"cmd\":\"state\",\"verbose\":true}", "bad_arg");
    refused(&s, "a misspelt argument",
            "{\"cmd\":\"new\",\"scenario\":\"htl/tutorial\",\"sead\":5}", "bad_arg");
    refused(&s, "an unknown field next to the action",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"},\"force\":true}", "bad_arg");
    refused(&s, "an unknown field in the action",
            "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\",\"free\":true}}", "bad_arg");
    refused(&s, "an unknown command", "{\"cmd\":\"win\"}", "unknown_cmd");
    refused(&s, "cmd not a string", "{\"cmd\":[\"act\"]}", "bad_arg");
    refused(&s, "an unknown optional rule",
            "{\"cmd\":\"new\",\"scenario\":\"htl/tutorial\",\"options\":{\"htl.99\":true}}",
            "bad_arg");
    /* An action for a unit of the side that is not to move: take an
     * action with a unit listed now, let the other side come to move, and
     * send it then. */
    {
        json_t *mine = NULL, *a;
        /* (a Monmouth turn starts by choosing a Command: no unit yet) */
        for (int tries = 0; tries < 5 && !mine; tries++) {
            r = ask(&s, "{\"cmd\":\"legal\"}");
            json_t *acts = json_object_get(r, "actions");
            size_t k;
            json_array_foreach(acts, k, a) {
                if (!mine && json_object_get(a, "unit"))
                    mine = json_deep_copy(a);
            }
            json_decref(r);
            if (!mine)
                play_some(&s, 1);
        }
        CHECK(mine != NULL);
        char side[64];
        snprintf(side, sizeof side, "%s", to_move(&s));
        for (int i = 0; i < 50 && strcmp(to_move(&s), side) == 0; i++) {
            r = ask(&s, "{\"cmd\":\"act\",\"action\":{\"type\":\"end_turn\"}}");
            bool ended = json_is_true(json_object_get(r, "ok"));
            json_decref(r);
            if (!ended)
                play_some(&s, 1);
        }
        CHECK(strcmp(to_move(&s), side) != 0);
        if (mine) {
            json_object_del(mine, "text");
            json_object_del(mine, "cost");
            json_t *req = json_pack("{s:s, s:o}", "cmd", "act", "action", mine);
            char *l = json_dumps(req, JSON_COMPACT);
            json_decref(req);
            refused(&s, "an action for the other side's unit", l, "illegal_action|bad_arg");
            free(l);
        }
    }
    /* Replay records: a wrong hash, a changed action, a forced die out of
     * range; the session keeps the game it had. */
    {
        r = ask(&s, "{\"cmd\":\"record\"}");
        json_t *rec = json_deep_copy(json_object_get(r, "record"));
        json_decref(r);
        json_t *bad = json_deep_copy(rec);
        json_object_set_new(bad, "hash", json_string("0123456789abcdef"));
        json_t *req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
        char *l = json_dumps(req, JSON_COMPACT);
        refused(&s, "a record with a wrong hash", l, "replay_mismatch");
        free(l);
        json_decref(req);

        bad = json_deep_copy(rec);
        json_object_set_new(bad, "hash", json_string("not hex"));
        req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
        l = json_dumps(req, JSON_COMPACT);
        refused(&s, "a record with a hash that is not one", l, "replay_mismatch|bad_arg");
        free(l);
        json_decref(req);

        bad = json_deep_copy(rec);
        json_array_insert_new(json_object_get(bad, "actions"), 0,
                              json_pack("{s:[I]}", "dice", (json_int_t)4294967302LL));
        req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
        l = json_dumps(req, JSON_COMPACT);
        refused(&s, "a record with a die of 2^32 + 6", l, "bad_arg");
        free(l);
        json_decref(req);

        bad = json_deep_copy(rec);
        json_array_insert_new(json_object_get(bad, "actions"), 0,
                              json_pack("{s:s, s:s, s:[s]}", "type", "move", "unit", "nobody",
                                        "path", "A1"));
        req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
        l = json_dumps(req, JSON_COMPACT);
        refused(&s, "a record with a bad action", l, "bad_arg|illegal_action");
        free(l);
        json_decref(req);

        bad = json_deep_copy(rec);
        json_object_set_new(bad, "seed", json_real(1.0));
        req = json_pack("{s:s, s:o}", "cmd", "replay", "record", bad);
        l = json_dumps(req, JSON_COMPACT);
        refused(&s, "a record with a real seed", l, "bad_arg");
        free(l);
        json_decref(req);

        /* The good record still replays, in this session, to the same game. */
        char *before = snapshot(&s);
        req = json_pack("{s:s, s:O}", "cmd", "replay", "record", rec);
        json_t *ans = mk_session_request(&s, req);
        CHECK(json_is_true(json_object_get(ans, "ok")));
        json_decref(ans);
        json_decref(req);
        char *after = snapshot(&s);
        CHECK_STR(after, before);
        free(before);
        free(after);
        json_decref(rec);
    }
    mk_session_free(&s);
}

int main(void)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_catalog_entry *cat = malloc(sizeof *cat * MK_CATALOG_MAX);
    mk_error err;
    int ns = mk_catalog_list(cat, MK_CATALOG_MAX, &err);
    CHECK(ns >= 1);
    for (int i = 0; i < n; i++) {
        /* Its tutorial if it has one, else its first scenario. */
        int pick = -1;
        for (int k = 0; k < ns; k++)
            if (strcmp(cat[k].ruleset, rs[i]->id) == 0 &&
                (pick < 0 || strstr(cat[k].id, "tutorial")))
                pick = k;
        if (pick >= 0)
            abuse(rs[i], cat[pick].id);
        else
            printf("%s: no built-in scenario, skipped\n", rs[i]->id);
    }
    free(cat);
    printf("test_abuse: %ld abusive requests, each refused with the game unchanged\n", cases);
    return check_done("test_abuse");
}
