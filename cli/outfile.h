/* Output files of the CLI: checked before a run, written through temporary files beside their
 * targets and renamed into place, so a failure never leaves a partial or half-updated set. A symbolic
 * link is followed (its target is replaced, the link kept); a target that is not a regular file (a
 * terminal, /dev/null, a pipe) is written through directly, since renaming over it would replace the
 * device or pipe itself, and one that is stdout (/dev/stdout, or the file stdout was redirected to) is written
 * through descriptor 1. */
#ifndef ULPB_OUTFILE_H
#define ULPB_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* 0 when path can be written: a regular file, or a new one, whose directory takes a new file (checked by
 * creating and removing a temporary one), or an existing writable device or pipe. Otherwise -1 with
 * "cannot write 'PATH': REASON" in err. Runs take minutes to hours, so commands check their outputs before
 * starting. */
int ulpb_output_check(const char *path, char *err, size_t err_len);

/* 1 when path is the file or device behind this process's stdout (an output written there takes stdout's place). */
int ulpb_output_is_stdout(const char *path);

/* 1 when the two paths would write one file: the same existing regular file (however named, through links too), or
 * the same new directory entry; else 0. */
int ulpb_output_same(const char *a, const char *b);

/* Creates a new, empty temporary file ".BASE.tmp.HOST.PID.N" in path's directory (rename() within
 * one file system is atomic) with O_EXCL and mode 0666 & ~umask, the permissions of any new
 * file. Returns its descriptor and the malloc'ed name in *tmp; -1 with err set on failure. First removes the
 * temporary files of path that this user's processes on this machine, no longer running, left there at least ten
 * minutes ago. */
int ulpb_temp_create(const char *path, char **tmp, char *err, size_t err_len);
/* HOST in those names: this machine's name, characters other than letters, digits and '-' as '_', at most 64 of
 * them ("host" when it has none), cut to size - 1. */
void ulpb_temp_host_label(char *label, size_t size);

/* write() until all len bytes are written (retrying EINTR); 0 or -1 with errno set. */
int ulpb_write_full(int fd, const void *buf, size_t len);

typedef struct {
    const char *path;
    const char *text;  /* the contents, NUL-terminated unless len is given */
    size_t len;        /* 0: strlen(text) */
    const void *extra; /* optional second part written after text (a .npy array's data) */
    size_t extra_len;
    /* synced to disk before it replaces its target: renamed unsynced, a crash soon after could leave the target
     * empty, which for an exhaustive run's checkpoint or result would lose hours of work (other outputs are made
     * again in minutes, and eval's, timed by hyperfine, would time the disk) */
    bool sync;
} ulpb_output;

/* Writes every output to its temporary file (with the permissions, and for root the owner, of the file it will
 * replace), then the outputs that are devices or pipes, and renames the temporary files into place only when all
 * were written; on failure every temporary file is removed and no
 * regular target has been touched (unless a rename itself fails part-way, which on one directory already
 * written to is not expected). 0 on success, -1 with err set. */
int ulpb_write_outputs(const ulpb_output *outputs, int count, char *err, size_t err_len);
/* The same, for a caller whose own handlers of SIGINT, SIGTERM and SIGHUP only note the signal (an exhaustive run's
 * checkpoint): the write is finished, not cut short, and the caller stops after it. */
int ulpb_write_outputs_in_run(const ulpb_output *outputs, int count, char *err, size_t err_len);
/* While dir (a directory this run made for its outputs) is set, SIGINT, SIGTERM and SIGHUP remove it, if it is still
 * empty, before they end the process (signals the process ignores stay ignored); NULL puts the previous handlers
 * back. */
void ulpb_remove_dir_when_ended(const char *dir);
/* Removes the temporary files being written and the run's empty output directory (async-signal-safe): for a process
 * that is about to die of a signal. */
void ulpb_remove_pending_outputs(void);
/* Ends the process with status, the run's pending outputs removed as above, from a thread other than the one writing
 * them (the watch on hung kernel calls): a write in progress is let finish first (up to 10 s), so that no output is
 * left half-replaced and no list of temporary files is read while it is freed. */
_Noreturn void ulpb_exit_removing_pending_outputs(int status);
/* The process that waits for this one (ulpbench's supervisor, with ULPB_LIBRARIES: cli/ulpbench.c) learns through fd
 * (-1: none) the status each of ulpbench's own ways of ending gives, noted by ulpb_note_ending (async-signal-safe):
 * an ending it was not told of came from elsewhere, a library's _exit, say. */
void ulpb_set_ending_pipe(int fd);
void ulpb_note_ending(int status);

#endif
