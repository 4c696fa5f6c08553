package server

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch watches the policy file's directory, not the file: editors and
// kokua-compile replace the file by renaming a new one over it, which a
// watch on the file itself would lose. After a burst of events it waits
// for the directory to be quiet for the debounce interval, then reloads
// if the file is not the one last seen (another file, size or time).
//
// Watch returns once the watch is in place, or with the error that
// prevented it; the returned channel is closed when the watch ends, after
// ctx is done.
func (s *Server) Watch(ctx context.Context) (<-chan struct{}, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("cannot watch the policy file: %w", err)
	}
	abs, err := filepath.Abs(s.path)
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("cannot watch the policy file: %w", err)
	}
	dir := filepath.Dir(abs)
	if err := w.Add(dir); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("cannot watch %s: %w", dir, err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { _ = w.Close() }()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case _, ok := <-w.Events:
				if !ok {
					return
				}
				// Any event may concern the file: a rename over it, a write
				// in place, a symlink swapped in the directory. reload looks
				// at the file itself and does nothing when it is unchanged.
				timer.Reset(s.debounce)
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				s.log.Warn("watching the policy file", "dir", dir, "err", err)
				timer.Reset(s.debounce) // events may have been lost
			case <-timer.C:
				_ = s.reload(triggerWatch, false)
			}
		}
	}()
	s.log.Info("watching the policy file's directory", "dir", dir)
	return done, nil
}
