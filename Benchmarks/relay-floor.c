/*
 * The relay floors: the least a relay built on libcurl and libmicrohttpd can do per proxied GET.
 *
 * `buffered`: the whole upstream answer is received (libcurl, one easy handle kept per thread, so the
 * connection to the upstream is reused) before the first byte goes to the client (libmicrohttpd, a response
 * from that buffer, with its Content-Length), on the server's own thread. It starts the daemon with
 * pokestub's settings: no journal, no matching, no recording.
 *
 * `handed-over`: the same, with the transfer on an upstream thread while the connection is suspended, which
 * is how pokestub's record and proxy modes work (no server thread ever waits on the upstream).
 *
 * `streamed` is what a proxy that sends the answer on as it arrives can do (nginx's proxy_pass does): a
 * thread per connection (libmicrohttpd's MHD_USE_THREAD_PER_CONNECTION, where a content reader may block)
 * whose content reader runs the transfer (libcurl's multi interface) until the next piece of the body is in,
 * and hands it to libmicrohttpd to send while the upstream sends more. The status and Content-Length are the
 * upstream's, known from its header before the first piece.
 *
 * Usage: relay-floor PORT UPSTREAM buffered|handed-over|streamed POOL_BYTES THREADS
 *   UPSTREAM is a base URL (http://127.0.0.1:PORT); every request's path is fetched from it.
 * Built by bench.py with `cc -O2 relay-floor.c -lmicrohttpd -lcurl -lpthread`; a benchmark reference, not
 * part of pokestub. Answers GETs only, 502 on any upstream failure.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pokestub-daemon.h"

static const char *upstream;

/* ---- buffered ---- */

struct buffer {
    char *bytes;
    size_t count;
    size_t capacity;
};

static size_t
append(char *data, size_t size, size_t count, void *context)
{
    struct buffer *buffer = context;
    size_t length = size * count;
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 1 << 20;
        while (capacity < buffer->count + length) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
    return length;
}

static pthread_key_t handle_key;

static CURL *
thread_handle(void)
{
    CURL *handle = pthread_getspecific(handle_key);
    if (handle == NULL) {
        handle = curl_easy_init();
        pthread_setspecific(handle_key, handle);
    }
    return handle;
}

/* One buffered exchange: the request's upstream URL, then the whole answer. */
struct exchange {
    char url[4096];
    struct MHD_Connection *connection;
    long status;
    struct buffer body;
    volatile int fetched;
    struct exchange *next;
};

/* Receives the whole answer with the calling thread's easy handle. */
static void
fetch(struct exchange *exchange)
{
    CURL *handle = thread_handle();
    curl_easy_setopt(handle, CURLOPT_URL, exchange->url);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_BUFFERSIZE, 256L << 10);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, append);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange->body);
    exchange->status = 502;
    if (curl_easy_perform(handle) == CURLE_OK) curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &exchange->status);
    else exchange->body.count = 0;
}

/* Queues the fetched answer from its buffer (libmicrohttpd frees it), with its length. */
static enum MHD_Result
queue_fetched(struct exchange *exchange)
{
    struct MHD_Response *response =
        MHD_create_response_from_buffer(exchange->body.count, exchange->body.bytes, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(exchange->connection, (unsigned int) exchange->status, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result
answer_buffered(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                const char *version, const char *upload_data, size_t *upload_data_size, void **request)
{
    (void) cls; (void) method; (void) version; (void) upload_data; (void) upload_data_size;
    if (*request == NULL) {
        *request = connection;
        return MHD_YES;
    }
    struct exchange exchange = { .connection = connection };
    snprintf(exchange.url, sizeof exchange.url, "%s%s", upstream, url);
    fetch(&exchange);
    return queue_fetched(&exchange);
}

/* ---- handed-over ---- */

/* The same buffered exchange, made on an upstream thread while the connection is suspended, as pokestub
 * does so that no server thread waits on the upstream: the access handler suspends the connection and
 * queues the exchange; the upstream thread fetches, then resumes the connection; libmicrohttpd calls the
 * access handler again, which queues the answer. */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_changed = PTHREAD_COND_INITIALIZER;
static struct exchange *queue_head;

static void *
upstream_thread(void *unused)
{
    (void) unused;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (queue_head == NULL) pthread_cond_wait(&queue_changed, &queue_lock);
        struct exchange *exchange = queue_head;
        queue_head = exchange->next;
        pthread_mutex_unlock(&queue_lock);
        fetch(exchange);
        exchange->fetched = 1;
        MHD_resume_connection(exchange->connection);
    }
    return NULL;
}

static enum MHD_Result
answer_handed_over(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                   const char *version, const char *upload_data, size_t *upload_data_size, void **request)
{
    (void) cls; (void) method; (void) version; (void) upload_data; (void) upload_data_size;
    if (*request == NULL) {
        *request = calloc(1, sizeof(struct exchange));
        return MHD_YES;
    }
    struct exchange *exchange = *request;
    if (exchange->fetched) {
        enum MHD_Result result = queue_fetched(exchange);
        free(exchange);
        *request = NULL;
        return result;
    }
    exchange->connection = connection;
    snprintf(exchange->url, sizeof exchange->url, "%s%s", upstream, url);
    MHD_suspend_connection(connection);
    pthread_mutex_lock(&queue_lock);
    exchange->next = queue_head;
    queue_head = exchange;
    pthread_cond_signal(&queue_changed);
    pthread_mutex_unlock(&queue_lock);
    return MHD_YES;
}

/* ---- streamed ---- */

/* One transfer, driven by the content reader on the connection's own thread: each call of the reader runs
 * libcurl's multi interface until a piece of the body has arrived, copies it straight into libmicrohttpd's
 * send buffer (what does not fit waits in `spill`), and returns; libmicrohttpd sends it while the client's
 * side and the upstream's side of loopback keep moving on the other core. */
struct stream {
    CURLM *multi;
    CURL *handle;
    char *target;               /* libmicrohttpd's buffer during a reader call */
    size_t room;
    size_t delivered;
    struct buffer spill;        /* what arrived beyond `room` */
    size_t spill_sent;
    int running;
    int failed;
};

static size_t
take_piece(char *data, size_t size, size_t count, void *context)
{
    struct stream *stream = context;
    size_t length = size * count, direct = 0;
    if (stream->target != NULL) {
        direct = length < stream->room - stream->delivered ? length : stream->room - stream->delivered;
        memcpy(stream->target + stream->delivered, data, direct);
        stream->delivered += direct;
    }
    if (direct < length && append(data + direct, 1, length - direct, &stream->spill) != length - direct) return 0;
    return length;
}

/* Runs the transfer until `enough` says stop or it ends. */
static void
drive(struct stream *stream, int (*enough)(struct stream *))
{
    while (stream->running && !enough(stream)) {
        if (curl_multi_perform(stream->multi, &stream->running) != CURLM_OK) {
            stream->failed = 1;
            break;
        }
        if (stream->running && !enough(stream)) curl_multi_poll(stream->multi, NULL, 0, 1000, NULL);
    }
    if (!stream->running) {
        int left;
        CURLMsg *message;
        while ((message = curl_multi_info_read(stream->multi, &left)) != NULL)
            if (message->msg == CURLMSG_DONE && message->data.result != CURLE_OK) stream->failed = 1;
    }
}

static int
has_head(struct stream *stream)
{
    long status = 0;
    curl_easy_getinfo(stream->handle, CURLINFO_RESPONSE_CODE, &status);
    return status != 0 && stream->spill.count > 0;
}

static int
has_piece(struct stream *stream)
{
    return stream->delivered > 0;
}

static ssize_t
read_piece(void *cls, uint64_t position, char *buffer, size_t capacity)
{
    (void) position;
    struct stream *stream = cls;
    if (stream->spill_sent < stream->spill.count) {
        size_t count = stream->spill.count - stream->spill_sent;
        if (count > capacity) count = capacity;
        memcpy(buffer, stream->spill.bytes + stream->spill_sent, count);
        stream->spill_sent += count;
        if (stream->spill_sent == stream->spill.count) stream->spill.count = stream->spill_sent = 0;
        return (ssize_t) count;
    }
    stream->target = buffer;
    stream->room = capacity;
    stream->delivered = 0;
    drive(stream, has_piece);
    stream->target = NULL;
    if (stream->delivered > 0) return (ssize_t) stream->delivered;
    if (stream->spill.count > 0) return read_piece(cls, position, buffer, capacity);
    return stream->failed ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
}

static void
end_stream(void *cls)
{
    struct stream *stream = cls;
    curl_multi_remove_handle(stream->multi, stream->handle);
    free(stream->spill.bytes);
    free(stream);
}

static pthread_key_t multi_key;

/* Thread-exit destructors: a connection's thread ends with its connection (thread per connection). */
static void
free_handle(void *handle) { curl_easy_cleanup(handle); }

static void
free_multi(void *multi) { curl_multi_cleanup(multi); }

static enum MHD_Result
answer_streamed(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                const char *version, const char *upload_data, size_t *upload_data_size, void **request)
{
    (void) cls; (void) method; (void) version; (void) upload_data; (void) upload_data_size;
    if (*request == NULL) {
        *request = connection;
        return MHD_YES;
    }
    /* One easy handle and one multi handle per connection thread, kept: the upstream connection is reused. */
    CURLM *multi = pthread_getspecific(multi_key);
    if (multi == NULL) {
        multi = curl_multi_init();
        pthread_setspecific(multi_key, multi);
    }
    struct stream *stream = calloc(1, sizeof *stream);
    stream->multi = multi;
    stream->handle = thread_handle();
    char target[4096];
    snprintf(target, sizeof target, "%s%s", upstream, url);
    curl_easy_setopt(stream->handle, CURLOPT_URL, target);
    curl_easy_setopt(stream->handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(stream->handle, CURLOPT_BUFFERSIZE, 64L << 10);
    curl_easy_setopt(stream->handle, CURLOPT_WRITEFUNCTION, take_piece);
    curl_easy_setopt(stream->handle, CURLOPT_WRITEDATA, stream);
    curl_multi_add_handle(multi, stream->handle);
    stream->running = 1;
    drive(stream, has_head);    /* the status and Content-Length come before the first piece */
    long status = 502;
    curl_off_t length = -1;
    if (!stream->failed) {
        curl_easy_getinfo(stream->handle, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(stream->handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    }
    struct MHD_Response *response = MHD_create_response_from_callback(
        length >= 0 ? (uint64_t) length : MHD_SIZE_UNKNOWN, 64 << 10, read_piece, stream, end_stream);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, (unsigned int) status, response);
    MHD_destroy_response(response);
    return result;
}

int
main(int argc, char **argv)
{
    if (argc != 6 || (strcmp(argv[3], "buffered") != 0 && strcmp(argv[3], "handed-over") != 0
                      && strcmp(argv[3], "streamed") != 0)) {
        fprintf(stderr, "usage: %s PORT UPSTREAM buffered|handed-over|streamed POOL_BYTES THREADS\n", argv[0]);
        return 2;
    }
    upstream = argv[2];
    curl_global_init(CURL_GLOBAL_DEFAULT);
    pthread_key_create(&handle_key, free_handle);
    int streamed = strcmp(argv[3], "streamed") == 0;
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t) atoi(argv[1])) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    struct MHD_Daemon *daemon;
    if (streamed) {
        pthread_key_create(&multi_key, free_multi);
        daemon = MHD_start_daemon(
            MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_AUTO,
            (uint16_t) atoi(argv[1]), NULL, NULL, answer_streamed, NULL,
            MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &address,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) atol(argv[4]),
            MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
            MHD_OPTION_END);
    } else {
        int handed_over = strcmp(argv[3], "handed-over") == 0;
        if (handed_over) {
            pthread_t thread;
            pthread_create(&thread, NULL, upstream_thread, NULL);
        }
        daemon = start_like_pokestub((uint16_t) atoi(argv[1]), handed_over ? answer_handed_over : answer_buffered,
                                     (size_t) atol(argv[4]), (unsigned int) atoi(argv[5]), 1024);
    }
    return serve_until_stopped(daemon, argv[1]);
}
