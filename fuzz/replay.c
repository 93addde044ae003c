/* replay.c - runs a libFuzzer target's entry point over files, without
 * libFuzzer: the regression test of every fuzzer (CMakeLists.txt builds
 * replay_fuzz_NAME from fuzz/fuzz_NAME.c and this file, and ctest runs it
 * over fuzz/corpus/NAME/, where every crash a fuzzer found is kept).
 * Usage: replay_fuzz_NAME FILE|DIR...   Exits 0 once every input ran. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static long inputs;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *more = realloc(buf, cap * 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    /* A private copy of exactly n bytes, so that reading past the input is
     * caught by AddressSanitizer as under libFuzzer. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    inputs++;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(sb.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char **more = realloc(names, sizeof *names * (n + 1));
        if (!more)
            break;
        names = more;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);   /* the same order every run */
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (run_path(names[i]) != 0)
            rc = -1;
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i]) != 0)
            rc = 1;
    printf("%s: %ld inputs ran without a crash\n", argc > 0 ? argv[0] : "replay", inputs);
    return rc;
}
