/*
 * The libmicrohttpd floor: the least a server on libmicrohttpd can do per request, with pokestub's settings.
 *
 * It answers the benchmark's routes with the same bytes as pokestub and nginx, from memory, with one
 * response object per route made at start and queued again for every request; a POST's body is read and
 * dropped, as nginx's `return 200` does. It starts the daemon as pokestub's HTTPServer.startDaemon does
 * (pokestub-daemon.h), so what is
 * left between it and nginx is libmicrohttpd's own cost, and what is left between pokestub and it is
 * pokestub's. No Swift, no matching, no journal.
 *
 * Usage: floor PORT ROOT POOL_BYTES THREADS CONNECTIONS
 *   ROOT holds list.json, templated.json, pokemon-1.json and miss.txt (bench.py's nginx root).
 * Built by bench.py with `cc -O2 floor.c -lmicrohttpd`; a benchmark reference, not part of pokestub.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pokestub-daemon.h"

struct route {
    const char *method;
    const char *url;
    const char *file;
    const char *literal;
    const char *type;
    unsigned int status;
    struct MHD_Response *response;
};

static struct route routes[] = {
    { "GET", "/api/v2/pokemon/", "list.json", NULL, "application/json", 200, NULL },
    { "GET", "/api/v2/pokemon", "templated.json", NULL, "application/json", 200, NULL },
    { "GET", "/api/v2/pokemon/1/", "pokemon-1.json", NULL, "application/json", 200, NULL },
    { "GET", "/api/v2/pokemon/9999/", "miss.txt", NULL, "text/plain; charset=utf-8", 404, NULL },
    { "POST", "/api/v2/bench/post", NULL, "{\"ok\":true}", "application/json", 200, NULL },
    { "POST", "/api/v2/bench/upload", NULL, "{\"uploaded\":true}", "application/json", 200, NULL },
};
static const size_t route_count = sizeof(routes) / sizeof(routes[0]);

static struct MHD_Response *
response_for(const char *root, const struct route *route)
{
    if (route->literal != NULL)
        return MHD_create_response_from_buffer(strlen(route->literal), (void *) route->literal,
                                               MHD_RESPMEM_PERSISTENT);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, route->file);
    FILE *file = fopen(path, "rb");
    if (file == NULL) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t) size + 1);
    if (bytes == NULL || fread(bytes, 1, (size_t) size, file) != (size_t) size) { perror(path); exit(1); }
    fclose(file);
    return MHD_create_response_from_buffer((size_t) size, bytes, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result
answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
       const char *version, const char *upload_data, size_t *upload_data_size, void **request)
{
    (void) cls; (void) version; (void) upload_data;
    if (*request == NULL) { /* first call: the header is in; the body, if any, follows */
        *request = connection;
        return MHD_YES;
    }
    if (*upload_data_size != 0) { /* a piece of the body: dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    for (size_t index = 0; index < route_count; index++) {
        if (strcmp(routes[index].method, method) == 0 && strcmp(routes[index].url, url) == 0)
            return MHD_queue_response(connection, routes[index].status, routes[index].response);
    }
    return MHD_queue_response(connection, 404, routes[3].response);
}

int
main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s PORT ROOT POOL_BYTES THREADS CONNECTIONS\n", argv[0]);
        return 2;
    }
    for (size_t index = 0; index < route_count; index++) {
        routes[index].response = response_for(argv[2], &routes[index]);
        MHD_add_response_header(routes[index].response, "Content-Type", routes[index].type);
    }
    struct MHD_Daemon *daemon = start_like_pokestub(
        (uint16_t) atoi(argv[1]), answer, (size_t) atol(argv[3]), (unsigned int) atoi(argv[4]),
        (unsigned int) atoi(argv[5]));
    return serve_until_stopped(daemon, argv[1]);
}
