/*
 * atomic: write a file so that readers only ever see the old content or the
 * complete new content, never half a file.  Every export (BOM, summary,
 * validation plan, scenario) goes through here.
 *
 * How: a temporary file is created next to the target (same folder, hence
 * the same file system, so rename(2) is atomic), written, flushed with
 * fflush + fsync, closed and renamed over the target.  On any failure the
 * temporary file is removed and an existing target is left untouched.
 *
 * Symlinks: the target path is never followed.  When it is a symbolic link,
 * the rename replaces the link itself with the new regular file; the file
 * the link pointed to is not modified.  A directory at the target path is
 * an error (EISDIR).
 *
 * Devices and pipes: a character device, FIFO or socket at the target (or
 * behind a symlink there: /dev/null, /dev/stdout, a shell's >(...)) is
 * written to directly, since replacing /dev/null with a regular file would
 * break the whole machine; there is nothing to be atomic about in a stream.
 * A block device is refused.
 *
 * Errors are "cannot write 'PATH': strerror" (the caller adds its prefix).
 *
 * Ownership: atomic_file_open() fills a caller-owned struct that must be
 * finished with exactly one of atomic_file_commit() or atomic_file_abort().
 */
#ifndef ACCELSIZER_ATOMIC_H
#define ACCELSIZER_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *fp;		/* write here between open and commit */
	char *path;		/* the target */
	char *tmp;		/* the temporary file next to it; NULL when
				 * writing straight to a device or pipe */
};

/* Creates the temporary file.  On failure nothing exists on disk. */
bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errsz);

/* Flushes, syncs, closes and renames into place; frees af's storage.  On
 * failure removes the temporary file, leaves the target alone and writes
 * why into err. */
bool atomic_file_commit(struct atomic_file *af, char *err, size_t errsz);

/* Discards everything written; the target is untouched.  Safe to call on a
 * struct whose open failed. */
void atomic_file_abort(struct atomic_file *af);

/*
 * One-shot form: opens, calls fn to write the content, commits.  When fn
 * returns false or any step fails, the target is untouched and err says
 * why (fn's own message, or "cannot write 'PATH': strerror(errno)" when
 * fn left err empty).
 */
typedef bool (*atomic_writer_fn)(FILE *fp, void *ctx, char *err, size_t errsz);
bool atomic_write(const char *path, atomic_writer_fn fn, void *ctx, char *err, size_t errsz);

#endif
