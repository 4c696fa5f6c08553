package lsp

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long a watched file must stay quiet before it is read
// again: a program that rewrites it makes several events, and a rename
// over it a remove and a create.
const settle = 50 * time.Millisecond

// watcher calls a function when one file changes.
type watcher struct {
	w    *fsnotify.Watcher
	done chan struct{}
	once sync.Once
}

// watchFile watches the file's folder, since editors and generators
// replace a file by renaming another over it, which ends a watch on the
// file itself, and calls changed once the file has settled after a write,
// a create or a rename onto it.
func watchFile(path string, changed func()) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		_ = fw.Close()
		return nil, err
	}
	if err := fw.Add(filepath.Dir(abs)); err != nil {
		_ = fw.Close()
		return nil, err
	}
	w := &watcher{w: fw, done: make(chan struct{})}
	go func() {
		var timer *time.Timer
		defer func() {
			if timer != nil {
				timer.Stop()
			}
		}()
		for {
			select {
			case ev, ok := <-fw.Events:
				if !ok {
					return
				}
				if filepath.Clean(ev.Name) != abs || !ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Rename) {
					continue
				}
				if timer != nil {
					timer.Stop()
				}
				timer = time.AfterFunc(settle, func() {
					select {
					case <-w.done:
					default:
						changed()
					}
				})
			case _, ok := <-fw.Errors:
				if !ok {
					return
				}
			case <-w.done:
				return
			}
		}
	}()
	return w, nil
}

func (w *watcher) close() {
	if w == nil {
		return
	}
	w.once.Do(func() {
		close(w.done)
		_ = w.w.Close()
	})
}
