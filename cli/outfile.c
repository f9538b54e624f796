#define _GNU_SOURCE
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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

/* How an output path is written. */
typedef enum { TARGET_FILE, TARGET_STREAM, TARGET_STDOUT } target_kind;

/* 1 when st is the file or device behind this process's standard output. */
static int is_stdout(const struct stat *st) {
    struct stat out;
    return fstat(STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

/* Classifies path for writing (*where malloc'ed):
 *   TARGET_FILE    a regular file or a new name, written beside *where and renamed over it (*where is the
 *                  symbolic link's target when path is one, so the link stays);
 *   TARGET_STREAM  a device or pipe, opened by path and written through;
 *   TARGET_STDOUT  whatever stdout is (/dev/stdout, or the file it was redirected to), written through descriptor
 *                  1: reopening it by name would lose the shell's offset and append mode, and a rename would leave
 *                  the shell writing to an unlinked file.
 * -1 with err set for a directory, a dangling link, an unreachable path, or out of memory. */
static int classify_target(const char *path, target_kind *kind, char **where, char *err, size_t err_len) {
    struct stat st;
    *where = NULL;
    *kind = TARGET_FILE;
    if (!*base_of(path)) {
        snprintf(err, err_len, "cannot write '%s': no file name", path);
        return -1;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, err_len, "cannot write '%s': it is a directory", path);
            return -1;
        }
        if (is_stdout(&st))
            *kind = TARGET_STDOUT;
        else if (!S_ISREG(st.st_mode))
            *kind = TARGET_STREAM; /* opened by name, which also follows /proc/self/fd links to pipes */
        struct stat link;
        if (*kind == TARGET_FILE && lstat(path, &link) == 0 && S_ISLNK(link.st_mode)) {
            if (!(*where = realpath(path, NULL))) {
                snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
                return -1;
            }
            return 0;
        }
    } else if (errno != ENOENT) {
        snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        return -1;
    } else if (lstat(path, &st) == 0) { /* it exists as a name only: a link to nothing */
        snprintf(err, err_len, "cannot write '%s': symbolic link to a missing place", path);
        return -1;
    }
    if (!(*where = strdup(path))) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    return 0;
}

int ulpb_output_is_stdout(const char *path) {
    struct stat st;
    return path && stat(path, &st) == 0 && is_stdout(&st);
}

int ulpb_output_check(const char *path, char *err, size_t err_len) {
    target_kind kind;
    char *where;
    if (classify_target(path, &kind, &where, err, err_len)) return -1;
    int rc = -1;
    if (kind != TARGET_FILE) {
        if (kind == TARGET_STREAM && access(where, W_OK) != 0)
            snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
        else
            rc = 0;
        free(where);
        return rc;
    }
    char *dir = dir_of(where);
    if (!dir) {
        free(where);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    struct stat st;
    if (stat(dir, &st) != 0)
        snprintf(err, err_len, "cannot write '%s': directory '%s': %s", path, dir, strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        snprintf(err, err_len, "cannot write '%s': '%s' is not a directory", path, dir);
    else {
        /* A trial file, which access() cannot stand in for: root passes every permission check, and some file
         * systems (/proc, read-only mounts) refuse new files whatever the permissions say. */
        char *tmp;
        const int fd = ulpb_temp_create(where, &tmp, err, err_len);
        if (fd >= 0) { /* else err names the file that could not be made and why */
            close(fd);
            unlink(tmp);
            free(tmp);
            rc = 0;
        }
        /* An existing file is replaced by a rename, which its own permissions do not stop: refused as the shell's
         * "> FILE" would refuse it (a file made read-only to keep it). In a sticky directory (/tmp) only its owner or
         * the directory's may rename over it: found out only at the end of the run, the result would be lost. */
        struct stat target;
        if (rc == 0 && stat(where, &target) == 0 && S_ISREG(target.st_mode)) {
            const uid_t me = geteuid();
            if (access(where, W_OK) != 0) {
                snprintf(err, err_len, "cannot write '%s': %s", path, strerror(errno));
                rc = -1;
            } else if ((st.st_mode & S_ISVTX) && me != 0 && target.st_uid != me && st.st_uid != me) {
                snprintf(err, err_len,
                         "cannot write '%s': another user's file in a directory with the sticky bit (as /tmp), which "
                         "only its owner may replace",
                         path);
                rc = -1;
            }
        }
    }
    free(dir);
    free(where);
    return rc;
}

int ulpb_output_same(const char *a, const char *b) {
    /* Existing regular files are replaced where they are (through any symbolic link): one file whatever the names.
     * Devices and pipes (/dev/null twice) are written through and do not collide. */
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* New files collide when they are one directory entry (the same name in the same directory). */
    if (strcmp(a, b) == 0) return 1;
    if (strcmp(base_of(a), base_of(b)) != 0) return 0;
    char *dir_a = dir_of(a), *dir_b = dir_of(b);
    const int same = dir_a && dir_b && stat(dir_a, &sa) == 0 && stat(dir_b, &sb) == 0 && sa.st_dev == sb.st_dev &&
                     sa.st_ino == sb.st_ino;
    free(dir_a), free(dir_b);
    return same;
}

void ulpb_temp_host_label(char *label, size_t size) {
    char name[256] = {0};
    if (gethostname(name, sizeof name - 1) != 0 || !name[0]) snprintf(name, sizeof name, "host");
    if (size == 0) return;
    size_t k = 0;
    for (const char *c = name; *c && k + 1 < size && k < 64; c++, k++)
        label[k] =
            ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-') ? *c : '_';
    label[k] = '\0';
}

/* Removes the temporary files of path that a process of this machine and user left when it was killed outright
 * (SIGKILL, the OOM killer: no handler runs), so that each restart does not add one. Only names of the exact form
 * ".BASE.tmp.HOST.PID.N" whose PID no longer exists here, unchanged for STALE_TEMP_SECONDS: another machine's (a
 * shared file system) or a live process's file stays, and so does one being written by a process this one cannot
 * see (a container with its own process IDs and the same host name), since a write takes far less than that. */
enum { STALE_TEMP_SECONDS = 600 };
static void remove_stale_temps(const char *path, const char *base, int dirlen, const char *host) {
    char *dir = dir_of(path);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        free(dir);
        return;
    }
    char prefix[200];
    const int prefix_len = snprintf(prefix, sizeof prefix, ".%.64s.tmp.%s.", base, host);
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (strncmp(ent->d_name, prefix, (size_t)prefix_len) != 0) continue;
        const char *rest = ent->d_name + prefix_len;
        char *end = NULL;
        errno = 0;
        const long pid = *rest >= '1' && *rest <= '9' ? strtol(rest, &end, 10) : 0; /* digits only, no sign or blank */
        if (errno || pid <= 0 || pid > INT_MAX || *end != '.' || pid == (long)getpid()) continue;
        const char *counter = end + 1;
        (void)strtoul(counter, &end, 10);
        if (end == counter || *end || *counter < '0' || *counter > '9') continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive, or another user's */
        const size_t len = (size_t)dirlen + strlen(ent->d_name) + 1;
        char *stale = malloc(len);
        if (!stale) break;
        snprintf(stale, len, "%.*s%s", dirlen, path, ent->d_name);
        struct stat st;
        if (lstat(stale, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            difftime(time(NULL), st.st_mtime) > STALE_TEMP_SECONDS)
            unlink(stale);
        free(stale);
    }
    closedir(d);
    free(dir);
}

int ulpb_temp_create(const char *path, char **tmp, char *err, size_t err_len) {
    *tmp = NULL;
    const char *base = base_of(path);
    const int dirlen = (int)(base - path);
    if (!*base) {
        snprintf(err, err_len, "cannot write '%s': no file name", path);
        return -1;
    }
    char host[72];
    ulpb_temp_host_label(host, sizeof host);
    remove_stale_temps(path, base, dirlen, host);
    /* the base is shortened so the name cannot exceed NAME_MAX */
    const size_t cap = strlen(path) + 64 + sizeof host;
    char *name = malloc(cap);
    if (!name) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    static atomic_uint counter;
    int fd = -1;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(name, cap, "%.*s.%.64s.tmp.%s.%ld.%u", dirlen, path, base, host, (long)getpid(),
                 atomic_fetch_add(&counter, 1));
        /* O_EXCL: never follow or reuse someone else's file. 0666: the umask decides, as for
         * any new file (mkstemp's 0600 would make reports unreadable to the rest of a team). */
        fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) break;
    }
    if (fd < 0) { /* the file is written beside its target first: say so, or /proc's ENOENT reads as nonsense */
        snprintf(err, err_len, "cannot write '%s': cannot create a new file in its directory: %s", path,
                 strerror(errno));
        free(name);
        return -1;
    }
    *tmp = name;
    return fd;
}

/* A file replaced by a rename keeps its permissions and, where the process may set them (root), its owner and group,
 * as after "> FILE" or sed -i: a report made private, or shared with a group, stays so. Failures are left to the
 * umask's defaults, as sed -i leaves them. */
static void keep_owner_and_mode(int fd, const char *target) {
    struct stat st;
    if (stat(target, &st) != 0 || !S_ISREG(st.st_mode)) return;
    /* not root: the group still, if the process is in it; else the file becomes the process's own */
    if (fchown(fd, st.st_uid, st.st_gid) != 0) (void)!fchown(fd, (uid_t)-1, st.st_gid);
    (void)fchmod(fd, st.st_mode & 0777); /* not set-user-ID or set-group-ID bits, which a new owner must not get */
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

/* Writes one output's parts to fd, synced to disk with sync; 0, or -1 with errno set (close() included: it can report
 * deferred write errors on NFS or with quotas). */
static int write_parts(int fd, const ulpb_output *o, bool sync) {
    const size_t len = o->len ? o->len : strlen(o->text);
    int error = ulpb_write_full(fd, o->text, len) != 0 ? errno : 0;
    if (!error && o->extra_len && ulpb_write_full(fd, o->extra, o->extra_len) != 0) error = errno;
    if (!error && sync && fsync(fd) != 0) error = errno;
    if (close(fd) != 0 && !error) error = errno;
    errno = error;
    return error ? -1 : 0;
}

/* The temporary files of the ulpb_write_outputs call in progress, for a signal that would end the process meanwhile
 * (delivered to any thread, so a mask on the calling one would not hold it back): while the files are written, the
 * handler removes them (unlink is async-signal-safe) and lets the signal take its default course; while they are
 * renamed (microseconds), it only records the signal, which is raised again once every file is in place, so that an
 * interrupt never leaves one output new and another old. */
static char *const *volatile pending_temps;
static volatile int pending_count;
static volatile sig_atomic_t renaming, held_signal;
static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { ENDING_SIGNALS = sizeof ending_signals / sizeof ending_signals[0] };

/* A directory the run made for its outputs (ulpb_remove_dir_when_ended): removed too, unless something is in it. */
static const char *volatile made_dir;

void ulpb_remove_pending_outputs(void) {
    char *const *temps = pending_temps;
    for (int i = 0; temps && i < pending_count; i++)
        if (temps[i]) unlink(temps[i]);
    if (made_dir) rmdir(made_dir); /* async-signal-safe, and fails once a file is in it */
}

/* Held by a write of outputs from its list of temporary files to their renames (ulpb_exit_removing_pending_outputs). */
static pthread_mutex_t writing_outputs = PTHREAD_MUTEX_INITIALIZER;

static volatile int ending_pipe = -1;
void ulpb_set_ending_pipe(int fd) { ending_pipe = fd; }
void ulpb_note_ending(int status) {
    const unsigned char byte = (unsigned char)status;
    if (ending_pipe >= 0) {
        const ssize_t written = write(ending_pipe, &byte, 1); /* a full pipe: the last note is lost, not waited for */
        (void)written;
    }
}

void ulpb_exit_removing_pending_outputs(int status) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10; /* a write stuck on a full pipe must not keep a hung run alive */
    pthread_mutex_timedlock(&writing_outputs, &deadline);
    ulpb_remove_pending_outputs();
    ulpb_note_ending(status);
    _exit(status);
}

static void remove_temps_then_end(int sig) {
    if (renaming) {
        held_signal = sig;
        return;
    }
    ulpb_remove_pending_outputs();
    signal(sig, SIG_DFL);
    raise(sig);
}

static struct sigaction dir_previous[ENDING_SIGNALS];

void ulpb_remove_dir_when_ended(const char *dir) {
    if (dir) {
        made_dir = dir;
        struct sigaction cleanup = {0};
        cleanup.sa_handler = remove_temps_then_end; /* no temporary files pending outside ulpb_write_outputs */
        sigfillset(&cleanup.sa_mask);
        for (int k = 0; k < ENDING_SIGNALS; k++) {
            sigaction(ending_signals[k], &cleanup, &dir_previous[k]);
            if (dir_previous[k].sa_handler == SIG_IGN) sigaction(ending_signals[k], &dir_previous[k], NULL);
        }
    } else if (made_dir) {
        for (int k = 0; k < ENDING_SIGNALS; k++) sigaction(ending_signals[k], &dir_previous[k], NULL);
        made_dir = NULL;
    }
}

static int write_outputs_with(const ulpb_output *outputs, int count, bool own_handlers, char *err, size_t err_len) {
    const size_t slots = count > 0 ? (size_t)count : 1;
    char **tmps = calloc(slots, sizeof *tmps), **wheres = calloc(slots, sizeof *wheres);
    target_kind *kinds = calloc(slots, sizeof *kinds);
    int rc = 0, renamed = 0;
    if (!tmps || !wheres || !kinds) {
        snprintf(err, err_len, "out of memory");
        rc = -1;
    }
    struct sigaction cleanup = {0}, previous[ENDING_SIGNALS];
    cleanup.sa_handler = remove_temps_then_end;
    sigfillset(&cleanup.sa_mask);
    pthread_mutex_lock(&writing_outputs);
    renaming = held_signal = 0;
    pending_count = count;
    pending_temps = tmps;
    for (int k = 0; k < ENDING_SIGNALS; k++) {
        sigaction(ending_signals[k], own_handlers ? &cleanup : NULL, &previous[k]);
        if (own_handlers && previous[k].sa_handler == SIG_IGN)
            sigaction(ending_signals[k], &previous[k], NULL); /* stays ignored */
    }
    for (int i = 0; i < count && rc == 0; i++) {
        if (classify_target(outputs[i].path, &kinds[i], &wheres[i], err, err_len)) {
            rc = -1;
            break;
        }
        if (kinds[i] != TARGET_FILE) continue; /* after every file is written */
        const int fd = ulpb_temp_create(wheres[i], &tmps[i], err, err_len);
        if (fd < 0) {
            rc = -1;
            break;
        }
        keep_owner_and_mode(fd, wheres[i]);
        if (write_parts(fd, &outputs[i], outputs[i].sync) != 0) {
            snprintf(err, err_len, "cannot write '%s': %s", outputs[i].path, strerror(errno));
            rc = -1;
        }
    }
    /* A reader that closes its pipe early makes the write fail (EPIPE) instead of killing the process, so the
     * temporary files are still removed. */
    void (*previous_sigpipe)(int) = signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < count && rc == 0; i++) {
        if (kinds[i] == TARGET_FILE) continue;
        int fd;
        if (kinds[i] == TARGET_STDOUT) {
            fflush(stdout);
            fd = dup(STDOUT_FILENO);
        } else {
            fd = open(wheres[i], O_WRONLY | O_NOCTTY | O_CLOEXEC);
        }
        if (fd < 0 || write_parts(fd, &outputs[i], false) != 0) {
            snprintf(err, err_len, "cannot write '%s': %s", outputs[i].path, strerror(errno));
            rc = -1;
        }
    }
    signal(SIGPIPE, previous_sigpipe);
    renaming = 1;
    for (; rc == 0 && renamed < count; renamed++)
        if (tmps[renamed] && rename(tmps[renamed], wheres[renamed]) != 0) {
            snprintf(err, err_len, "cannot write '%s': %s", outputs[renamed].path, strerror(errno));
            rc = -1;
            break;
        }
    for (int i = renamed; tmps && i < count; i++)
        if (tmps[i]) unlink(tmps[i]);
    pending_temps = NULL;
    for (int k = 0; k < ENDING_SIGNALS; k++) sigaction(ending_signals[k], &previous[k], NULL);
    renaming = 0;
    pthread_mutex_unlock(&writing_outputs);
    if (held_signal) raise(held_signal); /* to the handler or default action that was in place before */
    for (int i = 0; i < count && tmps && wheres; i++) free(tmps[i]), free(wheres[i]);
    free(tmps);
    free(wheres);
    free(kinds);
    return rc;
}

int ulpb_write_outputs(const ulpb_output *outputs, int count, char *err, size_t err_len) {
    return write_outputs_with(outputs, count, true, err, err_len);
}

int ulpb_write_outputs_in_run(const ulpb_output *outputs, int count, char *err, size_t err_len) {
    return write_outputs_with(outputs, count, false, err, err_len);
}
