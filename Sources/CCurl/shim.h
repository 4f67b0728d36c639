#ifndef POKESTUB_CCURL_SHIM_H
#define POKESTUB_CCURL_SHIM_H

// Typed wrappers for libcurl's variadic functions (curl_easy_setopt, curl_easy_getinfo), which Swift
// cannot call. One wrapper per argument type, so a wrong type is a compile error rather than undefined
// behaviour inside libcurl.

#include <string.h>
#include <curl/curl.h>

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*pokestub_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// curl_easy_setopt for options that take a long (CURLOPTTYPE_LONG).
static inline CURLcode pokestub_curl_setopt_long(CURL *handle, CURLoption option, long value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a curl_off_t (CURLOPTTYPE_OFF_T).
static inline CURLcode pokestub_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a C string (CURLOPTTYPE_STRINGPOINT); libcurl copies it,
/// except CURLOPT_POSTFIELDS (use CURLOPT_COPYPOSTFIELDS).
static inline CURLcode pokestub_curl_setopt_string(CURL *handle, CURLoption option, const char *value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for options that take a data pointer (CURLOPTTYPE_OBJECTPOINT/CBPOINT), NULL to clear.
static inline CURLcode pokestub_curl_setopt_pointer(CURL *handle, CURLoption option, void *value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_HTTPHEADER and other curl_slist options.
static inline CURLcode pokestub_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode pokestub_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                          pokestub_curl_data_callback value)
{
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_getinfo for CURLINFO_LONG values.
static inline CURLcode pokestub_curl_getinfo_long(CURL *handle, CURLINFO info, long *value)
{
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for CURLINFO_OFF_T values.
static inline CURLcode pokestub_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value)
{
    return curl_easy_getinfo(handle, info, value);
}

/// Whether this libcurl decodes a content encoding: "gzip", "deflate" (both need libz), "br" (brotli)
/// or "zstd".
static inline int pokestub_curl_supports_encoding(const char *name)
{
    const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    if (info == NULL) return 0;
    if (strcmp(name, "gzip") == 0 || strcmp(name, "deflate") == 0) return (info->features & CURL_VERSION_LIBZ) != 0;
#ifdef CURL_VERSION_BROTLI
    if (strcmp(name, "br") == 0) return (info->features & CURL_VERSION_BROTLI) != 0;
#endif
#ifdef CURL_VERSION_ZSTD
    if (strcmp(name, "zstd") == 0) return (info->features & CURL_VERSION_ZSTD) != 0;
#endif
    return 0;
}

#endif
