/*
 * atomic: temporary file + fflush + fsync + rename.  See atomic.h for the
 * guarantees; the comments here say why each step is there.
 */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_err(char *err, size_t errsz, const char *path, int e)
{
	if (err && errsz)
		snprintf(err, errsz, "cannot write '%s': %s", path, strerror(e));
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* "dir/.name.XXXXXX": hidden, in the target's own folder so that rename(2)
 * stays on one file system and is therefore atomic. */
static char *temp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	size_t n = dirlen + 1 + strlen(base) + sizeof ".XXXXXX";
	char *t = malloc(n);
	if (!t)
		return NULL;
	memcpy(t, path, dirlen);
	snprintf(t + dirlen, n - dirlen, ".%s.XXXXXX", base);
	return t;
}

/* New files get the usual 0666 & ~umask (mkstemp makes them 0600); an
 * existing regular file keeps its permissions. */
static mode_t wanted_mode(const struct stat *st, bool exists)
{
	if (exists && S_ISREG(st->st_mode))
		return st->st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

static bool is_stream(mode_t m)
{
	return S_ISCHR(m) || S_ISFIFO(m) || S_ISSOCK(m);
}

/* A device, pipe or socket is written in place: there is no file to swap. */
static bool open_stream(struct atomic_file *af, const char *path, char *err, size_t errsz)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || !(af->fp = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		set_err(err, errsz, path, e);
		return false;
	}
	af->path = dup_str(path);
	if (!af->path) {
		fclose(af->fp);
		af->fp = NULL;
		set_err(err, errsz, path, ENOMEM);
		return false;
	}
	return true;
}

static void free_af(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->fp = NULL;
}

bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errsz)
{
	af->fp = NULL;
	af->path = af->tmp = NULL;
	if (!path || !*path) {
		set_err(err, errsz, path ? path : "", ENOENT);
		return false;
	}
	/* lstat, not stat: a symlink at the target is replaced, not followed. */
	struct stat st;
	bool exists = lstat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		set_err(err, errsz, path, EISDIR);
		return false;
	}
	if (exists && S_ISBLK(st.st_mode)) {
		set_err(err, errsz, path, EINVAL);
		return false;
	}
	struct stat target;
	if (exists && (is_stream(st.st_mode) ||
		       (S_ISLNK(st.st_mode) && stat(path, &target) == 0 && is_stream(target.st_mode))))
		return open_stream(af, path, err, errsz);
	af->path = dup_str(path);
	af->tmp = temp_template(path);
	if (!af->path || !af->tmp) {
		free_af(af);
		set_err(err, errsz, path, ENOMEM);
		return false;
	}
	int fd = mkstemp(af->tmp);
	if (fd < 0) {
		/* The folder is what failed, but the user asked for path. */
		int e = errno;
		free_af(af);
		set_err(err, errsz, path, e);
		return false;
	}
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fchmod(fd, wanted_mode(&st, exists)) != 0 || !(af->fp = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(af->tmp);
		free_af(af);
		set_err(err, errsz, path, e);
		return false;
	}
	return true;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fp)
		fclose(af->fp);
	if (af->tmp)
		unlink(af->tmp);
	free_af(af);
}

bool atomic_file_commit(struct atomic_file *af, char *err, size_t errsz)
{
	int e = 0;
	/* fflush pushes stdio's buffer to the kernel (a full disk shows up
	 * here), fsync pushes the kernel's to the disk so that a crash right
	 * after the rename cannot leave an empty file under the new name. */
	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	else if (af->tmp && fsync(fileno(af->fp)) != 0)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno;
	af->fp = NULL;
	if (!af->tmp) {		/* a stream: written in place, nothing to rename */
		if (e)
			set_err(err, errsz, af->path, e);
		free_af(af);
		return !e;
	}
	if (!e && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		unlink(af->tmp);
		set_err(err, errsz, af->path, e);
		free_af(af);
		return false;
	}
	/* Best effort: make the rename itself durable.  A failure here does
	 * not undo a complete, correctly named file, so it is not reported. */
	const char *slash = strrchr(af->path, '/');
	char *dir = slash ? strndup(af->path, (size_t)(slash - af->path) + 1) : dup_str(".");
	if (dir) {
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			(void)fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free_af(af);
	return true;
}

bool atomic_write(const char *path, atomic_writer_fn fn, void *ctx, char *err, size_t errsz)
{
	struct atomic_file af;
	if (!atomic_file_open(&af, path, err, errsz))
		return false;
	if (err && errsz)
		err[0] = '\0';
	errno = 0;
	if (!fn(af.fp, ctx, err, errsz)) {
		/* A writer that only saw a failed fwrite leaves err empty. */
		int e = errno ? errno : EIO;
		if (err && errsz && !err[0])
			set_err(err, errsz, path, e);
		atomic_file_abort(&af);
		return false;
	}
	return atomic_file_commit(&af, err, errsz);
}
