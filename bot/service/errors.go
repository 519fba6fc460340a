package service

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/twentyone-bot/twentyone/storage"
)

// StoreError explains a failure to open the database at path: what it
// means and what to do.
func StoreError(path string, err error) error {
	switch {
	case errors.Is(err, storage.ErrInUse):
		return fmt.Errorf("the database %s is in use by another process (is the bot already running?): %w", path, err)
	case errors.Is(err, storage.ErrNewerSchema):
		return fmt.Errorf("the database %s was written by a newer twentyone: run that version, or restore a backup: %w", path, err)
	case errors.Is(err, storage.ErrPreRelease):
		return fmt.Errorf("the database %s was written by a pre-release twentyone (before 1.0), which this version does not read: "+
			"move it away to start with a new database, or keep running the pre-release: %w", path, err)
	case errors.Is(err, storage.ErrCorrupt):
		return fmt.Errorf("the database %s is damaged: restore a backup (twentyone backup writes one): %w", path, err)
	case errors.Is(err, fs.ErrPermission):
		return NotWritable(path, err)
	}
	return fmt.Errorf("opening the database %s: %w", path, err)
}

// NotWritable explains a permission denied on path, a file the bot
// creates or writes (the database, its backup socket): its directory must
// belong to the user the process runs as. In the Docker image that is
// 65532, and a volume another container created first is root's.
func NotWritable(path string, err error) error {
	dir := filepath.Dir(path)
	uid, gid := os.Getuid(), os.Getgid()
	return fmt.Errorf("%s is not writable by this process (uid %d, gid %d): give the directory %s and its files to that user, "+
		"such as with chown -R %d:%d %s (a Docker volume: docker run --rm -v VOLUME:%s busybox chown -R %d:%d %s): %w",
		path, uid, gid, dir, uid, gid, dir, dir, uid, gid, dir, err)
}
