/*
 * libmicrohttpd started as pokestub's HTTPServer.startDaemon starts it, for the benchmark's C references
 * (floor.c, relay-floor.c): internal polling thread, the best poll syscall, suspend/resume allowed, a thread
 * pool, the connection limit, the per-connection memory pool, strict HTTP/1.1 parsing and a 1,024 backlog,
 * on 127.0.0.1 only.
 */
#ifndef POKESTUB_DAEMON_H
#define POKESTUB_DAEMON_H

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static struct MHD_Daemon *
start_like_pokestub(uint16_t port, MHD_AccessHandlerCallback handler, size_t pool_bytes, unsigned int threads,
                    unsigned int connections)
{
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME, port, NULL, NULL, handler, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connections,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 60,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, pool_bytes,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int) 1024,
        MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
        MHD_OPTION_END);
}

static void
pokestub_daemon_stop(int signum) { (void) signum; }

/* Serves until SIGTERM or SIGINT, then stops the daemon; 1 when there is none (it could not start). */
static int
serve_until_stopped(struct MHD_Daemon *daemon, const char *port)
{
    if (daemon == NULL) {
        fprintf(stderr, "cannot serve on port %s\n", port);
        return 1;
    }
    signal(SIGTERM, pokestub_daemon_stop);
    signal(SIGINT, pokestub_daemon_stop);
    pause();
    MHD_stop_daemon(daemon);
    return 0;
}

#endif
