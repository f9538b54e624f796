#define _GNU_SOURCE
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path ("." for a bare name, "/" for a file in the root); malloc'ed. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* The file name part of path (after the last '/'). */
static const char *base_of(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int ulpb_output_check(const char *path, char *err, size_t err_len) {
    if (!*base_of(path)) {
        snprintf(err, err_len, "cannot write '%s': no file name", path);
        return -1;
    }
    char *dir = dir_of(path);
    if (!dir) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    struct stat st;
    int rc = -1;
    if (stat(dir, &st) != 0)
        snprintf(err, err_len, "cannot write '%s': directory '%s': %s", path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        snprintf(err, err_len, "cannot write '%s': '%s' is not a directory", path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        snprintf(err, err_len, "cannot write '%s': directory '%s': %s", path, dir, strerror(errno));
    else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(err, err_len, "cannot write '%s': it is a directory", path);
    else
        rc = 0;
    free(dir);
    return rc;
}

int ulpb_output_same(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return 1;
    /* Outputs are renamed into place, which replaces directory entries: two names collide when they are one
     * entry (the same name in the same directory), whatever files they point to now. */
    if (strcmp(base_of(a), base_of(b)) != 0) return 0;
    char *dir_a = dir_of(a), *dir_b = dir_of(b);
    struct stat sa, sb;
    const int same = dir_a && dir_b && stat(dir_a, &sa) == 0 && stat(dir_b, &sb) == 0 && sa.st_dev == sb.st_dev &&
                     sa.st_ino == sb.st_ino;
    free(dir_a), free(dir_b);
    return same;
}

int ulpb_temp_create(const char *path, char **tmp, char *err, size_t err_len) {
    *tmp = NULL;
    const char *base = base_of(path);
    const int dirlen = (int)(base - path);
    if (!*base) {
        snprintf(err, err_len, "cannot write '%s': no file name", path);
        return -1;
    }
    /* the base is shortened so the name cannot exceed NAME_MAX */
    const size_t cap = strlen(path) + 64;
    char *name = malloc(cap);
    if (!name) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    static atomic_uint counter;
    int fd = -1;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(name, cap, "%.*s.%.64s.tmp.%ld.%u", dirlen, path, base, (long)getpid(), atomic_fetch_add(&counter, 1));
        /* O_EXCL: never follow or reuse someone else's file. 0666: the umask decides, as for
         * any new file (mkstemp's 0600 would make reports unreadable to the rest of a team). */
        fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) break;
    }
    if (fd < 0) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        free(name);
        return -1;
    }
    *tmp = name;
    return fd;
}

int ulpb_write_full(int fd, const void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        const size_t chunk = len - done > (size_t)SSIZE_MAX ? (size_t)SSIZE_MAX : len - done;
        const ssize_t w = write(fd, (const char *)buf + done, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

int ulpb_write_outputs(const ulpb_output *outputs, int count, char *err, size_t err_len) {
    char **tmps = calloc(count > 0 ? (size_t)count : 1, sizeof *tmps);
    if (!tmps) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    int rc = 0, renamed = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        const int fd = ulpb_temp_create(outputs[i].path, &tmps[i], err, err_len);
        if (fd < 0) {
            rc = -1;
            break;
        }
        int error = ulpb_write_full(fd, outputs[i].text, strlen(outputs[i].text)) != 0 ? errno : 0;
        /* close() can report deferred write errors (NFS, quota) */
        if (close(fd) != 0 && !error) error = errno;
        if (error) {
            snprintf(err, err_len, "cannot write '%s': %s", outputs[i].path, strerror(error));
            rc = -1;
        }
    }
    for (; rc == 0 && renamed < count; renamed++)
        if (rename(tmps[renamed], outputs[renamed].path) != 0) {
            snprintf(err, err_len, "cannot write '%s': %s", outputs[renamed].path, strerror(errno));
            rc = -1;
            break;
        }
    for (int i = renamed; i < count; i++)
        if (tmps[i]) unlink(tmps[i]);
    for (int i = 0; i < count; i++) free(tmps[i]);
    free(tmps);
    return rc;
}
