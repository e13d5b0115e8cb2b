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
 * A FIFO nobody reads is refused after 3 s rather than waited on forever.
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
	int cleanup;		/* its cleanup_add_file() handle, 0 = none */
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

/*
 * Identity: is any output the same file as an input or as another output?
 * Compared by device and inode after following links (so ./x.csv, x.csv
 * and a link to x.csv are one file); a path that does not exist yet is
 * compared by its resolved folder and name.  Outputs that are NULL or "-"
 * (standard output) are skipped, and two outputs that are both the same
 * character device (/dev/null twice) are not a clash.  On a clash returns
 * false with "--summary './x.csv' is the same file as -o 'x.csv'" in err.
 * Call it before anything is written (exit 2 in the CLI).
 */
struct atomic_name {
	const char *what;	/* how the user named it: "-o", "--prices" */
	const char *path;
};
bool atomic_check_distinct(const struct atomic_name *outs, size_t n_outs,
			   const struct atomic_name *ins, size_t n_ins, char *err, size_t errsz);

/*
 * All or nothing for several files: flushes, fsyncs and closes every one
 * first; only when all of that succeeded renames them into place, holding
 * an flock on each target folder around the renames so that two programs
 * committing the same set never leave a mix of both.  On any failure every
 * temporary file is removed, no target is touched, and err names the file
 * that failed.  Every struct is finished either way (NULL entries and
 * structs whose open failed are skipped).  Only a rename that fails after
 * others succeeded (the folder changed under us) leaves the files renamed
 * so far.  atomic_file_commit() is this with one file.
 */
bool atomic_file_commit_all(struct atomic_file *const *files, size_t n, char *err, size_t errsz);

#endif
