/*
 * atomic: temporary file + fflush + fsync + rename.  See atomic.h for the
 * guarantees; the comments here say why each step is there.
 */
#include "atomic.h"
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
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

/* How long a FIFO may wait for its reader (`cat fifo & accelsizer -o fifo`
 * starts both at once) before the write is refused. */
#define FIFO_WAIT_MS 3000

/* Opens without blocking, so that a FIFO nobody reads cannot hang the
 * program in open(2) (issue 13 item 9: ENXIO until a reader comes); then
 * writes block as usual. */
static int open_nonblocking(const char *path)
{
	int fd;
	for (int waited = 0;; waited += 20) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 || errno != ENXIO || waited >= FIFO_WAIT_MS)
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (fd >= 0) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

/* A device, pipe or socket is written in place: there is no file to swap. */
static bool open_stream(struct atomic_file *af, const char *path, char *err, size_t errsz)
{
	int fd = open_nonblocking(path);
	if (fd < 0 && errno == ENXIO) {
		if (err && errsz)
			snprintf(err, errsz, "cannot write '%s': no process is reading the FIFO "
				 "(waited %d s)", path, FIFO_WAIT_MS / 1000);
		return false;
	}
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
	cleanup_drop_file(af->cleanup);
	af->cleanup = 0;
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	af->fp = NULL;
}

bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errsz)
{
	af->fp = NULL;
	af->path = af->tmp = NULL;
	af->cleanup = 0;
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
	/* Registered for removal on a fatal signal as it is created, with
	 * those signals held off in between (cleanup.h). */
	sigset_t fatal, old;
	sigfillset(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, &old);
	int fd = mkstemp(af->tmp);
	if (fd >= 0)
		af->cleanup = cleanup_add_file(af->tmp, path);
	sigprocmask(SIG_SETMASK, &old, NULL);
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

/* The folder a target lives in ("." for a bare name); caller frees. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return dup_str(".");
	if (slash == path)
		return dup_str("/");
	return strndup(path, (size_t)(slash - path));
}

/* Step one of a commit: everything but the rename.  On failure the
 * temporary file is removed and e holds why. */
static int finish_writing(struct atomic_file *af)
{
	int e = 0;
	/* fflush pushes stdio's buffer to the kernel (a full disk shows up
	 * here), fsync pushes the kernel's to the disk so that a crash right
	 * after the rename cannot leave an empty file under the new name. */
	errno = 0;
	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	else if (af->tmp && fsync(fileno(af->fp)) != 0)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	if (e && af->tmp)
		unlink(af->tmp);
	return e;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* flock(2) on each distinct target folder, taken in name order so that two
 * programs locking overlapping sets cannot deadlock.  The folder itself is
 * locked (opened read-only), so no lock file is left behind; a folder that
 * cannot be opened (no read permission) is renamed into unlocked, since
 * rename(2) stays atomic per file.  Returns how many fds are in fds. */
static size_t lock_folders(struct atomic_file *const *files, size_t n, int *fds)
{
	char **dirs = calloc(n ? n : 1, sizeof *dirs);
	size_t nd = 0, nfd = 0;
	if (!dirs)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (files[i] && files[i]->tmp && (dirs[nd] = dir_of(files[i]->path)))
			nd++;
	qsort(dirs, nd, sizeof *dirs, cmp_str);
	for (size_t i = 0; i < nd; i++) {
		if (i && !strcmp(dirs[i], dirs[i - 1]))
			continue;
		int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
		fds[nfd++] = fd;
	}
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	free(dirs);
	return nfd;
}

/* Best effort: make the renames durable.  A failure here does not undo a
 * complete, correctly named file, so it is not reported. */
static void sync_folder(const char *path)
{
	char *dir = dir_of(path);
	if (!dir)
		return;
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	free(dir);
}

bool atomic_file_commit_all(struct atomic_file *const *files, size_t n, char *err, size_t errsz)
{
	int e = 0;
	const char *failed = NULL;
	/* 1. Finish every file; the first failure is the one reported. */
	for (size_t i = 0; i < n; i++) {
		struct atomic_file *af = files[i];
		if (!af || !af->fp)
			continue;
		int fe = finish_writing(af);
		if (fe && !e) {
			e = fe;
			failed = af->path;
		}
	}
	/* 2. Rename only when all of them are complete, under the locks. */
	if (!e) {
		int *fds = malloc((n ? n : 1) * sizeof *fds);
		size_t nfd = fds ? lock_folders(files, n, fds) : 0;
		for (size_t i = 0; i < n && !e; i++) {
			struct atomic_file *af = files[i];
			if (!af || !af->tmp)
				continue;
			if (rename(af->tmp, af->path) != 0) {
				e = errno;
				failed = af->path;
			} else {
				free(af->tmp);
				af->tmp = NULL;
				cleanup_drop_file(af->cleanup);
				af->cleanup = 0;
				sync_folder(af->path);
			}
		}
		for (size_t i = 0; i < nfd; i++)
			close(fds[i]);	/* closing releases the flock */
		free(fds);
	}
	/* 3. Remove what is left over (everything, after a failure). */
	if (e)
		set_err(err, errsz, failed ? failed : "", e);
	for (size_t i = 0; i < n; i++) {
		if (!files[i])
			continue;
		if (files[i]->tmp)
			unlink(files[i]->tmp);
		free_af(files[i]);
	}
	return !e;
}

bool atomic_file_commit(struct atomic_file *af, char *err, size_t errsz)
{
	struct atomic_file *one[] = { af };
	return atomic_file_commit_all(one, 1, err, errsz);
}

/* ---- identity ---- */

struct file_key {
	bool exists;
	dev_t dev;
	ino_t ino;
	mode_t mode;
	char name[2 * PATH_MAX + 2];	/* resolved folder + name when it does not exist */
};

static void file_key(const char *path, struct file_key *k)
{
	struct stat st;
	memset(k, 0, sizeof *k);
	if (stat(path, &st) == 0) {
		k->exists = true;
		k->dev = st.st_dev;
		k->ino = st.st_ino;
		k->mode = st.st_mode;
		return;
	}
	char *dir = dir_of(path), real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (dir && realpath(dir, real))
		snprintf(k->name, sizeof k->name, "%s/%s", real, base);
	else
		snprintf(k->name, sizeof k->name, "%s", path);
	free(dir);
}

static bool same_key(const struct file_key *a, const struct file_key *b)
{
	if (a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return !strcmp(a->name, b->name);
}

static bool is_output(const struct atomic_name *o)
{
	return o->path && *o->path && strcmp(o->path, "-");
}

bool atomic_check_distinct(const struct atomic_name *outs, size_t n_outs,
			   const struct atomic_name *ins, size_t n_ins, char *err, size_t errsz)
{
	struct file_key a, b;
	for (size_t i = 0; i < n_outs; i++) {
		if (!is_output(&outs[i]))
			continue;
		file_key(outs[i].path, &a);
		for (size_t j = 0; j < n_ins; j++) {
			if (!ins[j].path)
				continue;
			file_key(ins[j].path, &b);
			if (same_key(&a, &b)) {
				snprintf(err, errsz, "%s '%s' is the %s '%s': refusing to overwrite an input",
					 outs[i].what, outs[i].path, ins[j].what, ins[j].path);
				return false;
			}
		}
		for (size_t j = 0; j < i; j++) {
			if (!is_output(&outs[j]))
				continue;
			file_key(outs[j].path, &b);
			if (same_key(&a, &b) && !(a.exists && S_ISCHR(a.mode))) {
				snprintf(err, errsz, "%s '%s' is the same file as %s '%s'", outs[i].what,
					 outs[i].path, outs[j].what, outs[j].path);
				return false;
			}
		}
	}
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
