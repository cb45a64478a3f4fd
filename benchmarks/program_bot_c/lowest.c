/* A program bot in C (docs/protocol.md): plays its lowest legal card, never takes. For benchmarks/program_bot.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_of(const char *line) {
    const char *t = strstr(line, "\"type\":\"");
    return t ? t + 8 : "";
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &cap, stdin) > 0) {
        const char *t = type_of(line);
        if (!strncmp(t, "hello", 5)) {
            puts("{\"type\":\"hello\",\"protocol\":1,\"name\":\"first-c\",\"version\":\"1\"}");
        } else if (!strncmp(t, "new_game", 8)) {
            puts("{\"type\":\"ready\"}");
        } else if (!strncmp(t, "decide", 6)) {
            const char *legal = strstr(line, "\"legal\":[");
            if (strstr(line, "\"decision\":\"take\"") || !legal) {
                puts("{\"action\":false}");
            } else {
                const char *best = NULL, *c = legal + 9, *ranks = "23456789TJQKA";
                while (*c == '"') {                      /* each "RS" or "RS*" of legal: keep the lowest rank */
                    if (!best || strchr(ranks, c[1]) < strchr(ranks, best[1]))
                        best = c;
                    c = strchr(c + 1, '"') + 1;
                    if (*c == ',') c++;
                }
                const char *end = strchr(best + 1, '"');
                printf("{\"action\":\"%.*s\"}\n", (int)(end - best - 1), best + 1);
            }
        } else if (!strncmp(t, "end_game", 8)) {
            puts("{\"type\":\"done\"}");
        } else {
            break;
        }
    }
    free(line);
    return 0;
}
