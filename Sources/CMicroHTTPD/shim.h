#ifndef POKESTUB_CMICROHTTPD_SHIM_H
#define POKESTUB_CMICROHTTPD_SHIM_H

// Typed wrappers for libmicrohttpd's variadic functions, which Swift cannot call.

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Everything pokestub sets when starting a daemon. Zero means "library default" for the numbers;
/// listen_fd < 0 means "bind yourself"; bind_address NULL means "any address".
struct pokestub_mhd_settings {
    unsigned int flags;
    uint16_t port;
    const struct sockaddr *bind_address;
    int listen_fd;
    unsigned int thread_pool_size;
    unsigned int connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    unsigned int listen_backlog;
    /// MHD_OPTION_STRICT_FOR_CLIENT: 1 refuses HTTP/1.1 requests without Host and spaces in the URL.
    int strict_for_client;
};

/// libmicrohttpd's unescape callback (MHD_OPTION_UNESCAPE_CALLBACK), kept from decoding anything: pokestub reads
/// the request target as received (the URI log callback) and decides itself what a malformed or NUL
/// percent-encoding gets (RequestFraming), so libmicrohttpd 0.9 and 1.0 answer alike. libmicrohttpd 1.0 decodes
/// the path strictly and answers 400 with its own HTML for `%zz` or `%00`, where 0.9 passes both on.
/// Returns the length of `value`, unchanged.
static inline size_t pokestub_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *value)
{
    (void) cls;
    (void) connection;
    return strlen(value);
}

/// Empties the query of a request target in place, by writing a NUL after its `?`. Only for libmicrohttpd 0.9,
/// from the URI log callback, for a target with more query arguments than pokestub accepts: 0.9.75 calls the
/// callback with the target in its read buffer and then parses the query from the same bytes as a C string, one
/// record per argument in the connection's memory pool; arguments that overflow the pool make it queue a 431 and
/// lose the request (`parse_initial_message_line` ignores the failure), so the client would get no answer at all.
/// Emptied, the query costs nothing, the request reaches pokestub, and pokestub answers 414 from the target it
/// copied first. libmicrohttpd 1.0 answers an overflow itself and is never given this.
static inline void pokestub_mhd_drop_query(char *target)
{
    char *query = strchr(target, '?');
    if (query != NULL)
        query[1] = '\0';
}

/// Starts a daemon with the settings above (MHD_start_daemon with an MHD_OPTION_ARRAY).
static inline struct MHD_Daemon *
pokestub_mhd_start(const struct pokestub_mhd_settings *settings,
                   MHD_AccessHandlerCallback handler, void *handler_cls,
                   void *(*uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection),
                   void *uri_logger_cls,
                   MHD_RequestCompletedCallback completed, void *completed_cls,
                   MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls)
{
    struct MHD_OptionItem options[15];
    int count = 0;
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) uri_logger, uri_logger_cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t) pokestub_mhd_keep_escaped, NULL };
    if (notify_connection != NULL)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify_connection, notify_connection_cls };
    if (settings->bind_address != NULL)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *) settings->bind_address };
    if (settings->listen_fd >= 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, settings->listen_fd, NULL };
    if (settings->thread_pool_size > 1)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, settings->thread_pool_size, NULL };
    if (settings->connection_limit > 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit, NULL };
    if (settings->connection_timeout_seconds > 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds, NULL };
    if (settings->connection_memory_limit > 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) settings->connection_memory_limit, NULL };
    if (settings->listen_backlog > 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, settings->listen_backlog, NULL };
    if (settings->strict_for_client != 0)
        options[count++] = (struct MHD_OptionItem){ MHD_OPTION_STRICT_FOR_CLIENT, settings->strict_for_client, NULL };
    options[count++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(settings->flags, settings->port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port the daemon is bound to (the real one after binding port 0), or 0.
static inline uint16_t pokestub_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The peer address of a connection, or NULL.
static inline const struct sockaddr *pokestub_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

/// The socket of a connection, or -1.
static inline int pokestub_mhd_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The per-connection pointer set in the MHD_OPTION_NOTIFY_CONNECTION callback, or NULL.
static inline void *pokestub_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

#endif
