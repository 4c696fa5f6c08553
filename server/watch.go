package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch watches the policy file's directory, not the file: editors and
// kokua-compile replace the file by renaming a new one over it, which a
// watch on the file itself would lose. Only the events that name the
// policy file (or, when it is a symlink to a file in the same directory,
// that file) count: events for other files in the directory never hold a
// reload back. After such an event the watcher waits until the file has
// been quiet for the debounce interval, and never more than DebounceMax
// after the first event of a burst, then reloads if the file is not the
// one last seen (another file, size or time).
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
		names := watchedNames(abs)
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		// first is when the pending burst of events began; zero when no
		// reload is pending.
		var first time.Time
		schedule := func() {
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			timer.Reset(min(s.debounce, max(first.Add(s.debounceMax).Sub(now), 0)))
		}
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				// A rename over the file, a write in place, the file or
				// the symlink removed or made again: each names the file
				// (or the directory, when the directory itself goes).
				// reload looks at the file itself and does nothing when it
				// is unchanged.
				name := filepath.Clean(ev.Name)
				counted := name == dir || names[filepath.Base(name)]
				if counted {
					schedule()
				}
				if s.watched != nil {
					s.watched(name, counted)
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				s.log.Warn("watching the policy file", "dir", dir, "err", err)
				schedule() // events may have been lost
			case <-timer.C:
				first = time.Time{}
				_ = s.reload(triggerWatch, false)
				names = watchedNames(abs)
			}
		}
	}()
	s.log.Info("watching the policy file's directory", "dir", dir)
	return done, nil
}

// watchedNames are the names in the policy file's directory whose events
// concern the policy: the file's own name, and for each symlink on the
// way from it to the file it stands for, the first name of the link's
// target when that lies in the directory. A link swapped between two
// files of the directory counts (policy.json -> a.json, then b.json), and
// so does a Kubernetes ConfigMap volume, whose policy.json ->
// ..data/policy.json is updated by renaming a new ..data link over the
// old one: no event names policy.json then, only ..data. A target in
// another directory is not watched; SIGHUP reloads it.
func watchedNames(abs string) map[string]bool {
	dir := filepath.Dir(abs)
	names := map[string]bool{filepath.Base(abs): true}
	path := abs
	for range maxLinks {
		target, err := os.Readlink(path)
		if err != nil {
			break // not a link (or gone): the way ends here
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		rel, err := filepath.Rel(dir, target)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			break // outside the directory, which is not watched
		}
		names[strings.SplitN(rel, string(filepath.Separator), 2)[0]] = true
		path = target
	}
	return names
}

// maxLinks bounds the links followed from the policy file, as the
// kernel bounds a path's (a loop of links ends there).
const maxLinks = 40
